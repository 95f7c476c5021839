"""The luck report at the end of a game: was a player unlucky, or did they just attack badly?

Players distrust dice, and after a game nothing answered them. This report replays a game's actions through the
engine (which knows how many armies and which units fought each roll) and gives, for every seat:

* armies lost against the armies the exact odds expected them to lose in the same rolls (`rules.odds.roll_odds`,
  per roll as thrown, so under ties re-rolled a void roll expects its own share of nothing), and the same for the
  armies they destroyed;
* battles: an attack on one target by one source, from its first roll until the target falls or the attacker turns
  to something else. Its chance is the exact chance, when it began, that the attacker takes the target by attacking
  on to the stop level (a blitz's own, 1 for single rolls: a player who stops early counts as having lost it). A
  battle the player was likely to lose (their chance of winning it below one half) and won is an upset; the report
  counts them against the number the odds expected (the sum of those chances);
* the dice audit's verdict in words (`conquista.dice.audit`: the faces, every dice combination, the attacker's
  losses and the blitzes against the exact odds, at the audit's own significance level).

Pure: the game is passed in, nothing is read or written.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from conquista.dice.audit import audit_records
from conquista.dice.audit_report import AuditReport
from conquista.dice.battles import Battle, battle_test, blitz_chance
from conquista.rules.actions import Attack, Blitz, Defend, Roll
from conquista.rules.engine import Game
from conquista.rules.fleet_battle import battle_rule
from conquista.rules.gamelog import dump_lines
from conquista.rules.missions import MISSIONS, effective_mission, mission_text
from conquista.rules.odds import DiceRule, battle_losses, roll_odds

LIKELY = Fraction(1, 2)


@dataclass
class PlayerLuck:
    """One seat's luck over a game."""

    seat: int
    colour: str
    rolls: int = 0                                  # rolls fought, attacking or defending
    lost: int = 0                                   # armies lost in them
    expected_lost: Fraction = Fraction(0)
    variance_lost: Fraction = Fraction(0)           # of the armies lost, roll by roll independent
    destroyed: int = 0                              # the other side's armies lost in them
    expected_destroyed: Fraction = Fraction(0)
    battles: int = 0                                # battles fought, attacking or defending
    underdog: int = 0                               # of those, the ones they were likely to lose
    upsets: int = 0                                 # of those, the ones they won
    expected_upsets: float = 0.0                    # the sum of their chances of winning those

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "colour": self.colour, "rolls": self.rolls, "lost": self.lost,
                "expected_lost": round(float(self.expected_lost), 1), "destroyed": self.destroyed,
                "expected_destroyed": round(float(self.expected_destroyed), 1), "battles": self.battles,
                "underdog": self.underdog, "upsets": self.upsets,
                "expected_upsets": round(self.expected_upsets, 1), "words": self.words()}

    def words(self) -> str:
        """One sentence for a phone or the terminal."""
        if not self.rolls:
            return f"{self.colour}: no battles"
        lost = f"{self.colour} lost {self.lost} armies where the odds expected {float(self.expected_lost):.1f}"
        # Within one standard deviation of the expectation is what fair dice give two times in three.
        delta = self.lost - float(self.expected_lost)
        spread = max(1.0, float(self.variance_lost) ** 0.5)
        mood = "about as expected" if abs(delta) <= spread else ("unlucky" if delta > 0 else "lucky")
        upsets = (f"won {self.upsets} of {self.underdog} battles they were likely to lose "
                  f"({self.expected_upsets:.1f} expected)" if self.underdog else "never fought as the underdog")
        return f"{lost} ({mood}), destroyed {self.destroyed} ({float(self.expected_destroyed):.1f} expected); {upsets}"


@dataclass(frozen=True)
class LuckReport:
    players: tuple[PlayerLuck, ...]
    missions: tuple[str, ...]          # every seat's mission, revealed (empty without missions)
    rolls: int
    verdict: str                       # the dice audit in words
    fair: bool | None                  # None: too few rolls to judge
    audit: AuditReport | None = field(default=None, repr=False)
    hints: tuple[tuple[str, int], ...] = ()   # (colour, hints asked) of each seat that asked the hard bot

    def hint_words(self) -> list[str]:
        """"red asked for 3 hints", for each seat that asked."""
        return [f"{colour} asked for {count} hint{'s' if count != 1 else ''}" for colour, count in self.hints]

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players], "missions": list(self.missions),
                "rolls": self.rolls, "verdict": self.verdict, "fair": self.fair, "hints": self.hint_words()}

    def lines(self) -> list[str]:
        """The report as text lines (`conquista replay`, the terminal)."""
        out = ["Luck report", *(f"  {p.words()}" for p in self.players), f"  The dice: {self.verdict}"]
        out.extend(f"  {words}" for words in self.hint_words())
        if self.missions:
            out.append("  Missions:")
            out.extend(f"    {p.colour}: {text}" for p, text in zip(self.players, self.missions, strict=False))
        return out


@dataclass
class _Open:
    """The battle in progress while the log is read."""

    source: int
    target: int
    attacker: int
    defender: int
    chance: float


def _roll_rule(game: Game) -> DiceRule:
    battle = game.battle
    assert battle is not None
    if not game.rules.fleets:
        return DiceRule.of(game.rules)
    s, t = battle.source, battle.target
    return battle_rule(game.rules, game.sails(s, t), game.defending_fleet(t))


def _loss_moments(attack: int, defend: int, rule: DiceRule) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """The mean and the variance of the armies each side loses in one roll: (attacker mean, defender mean,
    attacker variance, defender variance)."""
    odds = roll_odds(attack, defend, exact=True, rule=rule, with_void=True)
    mean_a = sum((p * a for (a, _d), p in odds.items()), Fraction(0))
    mean_d = sum((p * d for (_a, d), p in odds.items()), Fraction(0))
    var_a = sum((p * a * a for (a, _d), p in odds.items()), Fraction(0)) - mean_a * mean_a
    var_d = sum((p * d * d for (_a, d), p in odds.items()), Fraction(0)) - mean_d * mean_d
    return mean_a, mean_d, var_a, var_d


def _replayed(game: Game, start: Game | None) -> Iterator[tuple[Game, Any, bool]]:
    """(the game, the action, applied?) before and after each action of `game`'s log, replayed from `start` (by
    default the deal)."""
    if start is None:
        replay = Game(game.rules, game.map, game.players, game.log[0])  # type: ignore[arg-type]
    else:
        replay = start.clone()
    for action in game.log[len(replay.log):]:
        yield replay, action, False
        replay.apply(action)
        yield replay, action, True


def _close(battle: _Open | None, won: bool, players: list[PlayerLuck], blitzes: list[Battle],
           blitz: bool) -> None:
    if battle is None:
        return
    for seat, chance, wins in ((battle.attacker, battle.chance, won), (battle.defender, 1 - battle.chance, not won)):
        if not 0 <= seat < len(players):
            continue  # the neutral army: not a seat
        p = players[seat]
        p.battles += 1
        if chance < LIKELY:
            p.underdog += 1
            p.upsets += wins
            p.expected_upsets += chance
    if blitz:
        blitzes.append(Battle(0, 0, 0, 0, won, battle.chance))


def tally(game: Game, start: Game | None = None) -> tuple[list[PlayerLuck], list[Battle]]:
    """Each seat's luck, and the blitzes for the audit's battle test; `start`: the position the log after it
    is replayed from (a test's), by default the deal."""
    colours = game.rules.colours
    players = [PlayerLuck(seat, colours[seat]) for seat in range(game.players)]
    blitzes: list[Battle] = []
    current: _Open | None = None
    blitzing = False
    for replay, action, applied in _replayed(game, start):
        if not applied:
            if isinstance(action, Attack | Blitz):
                s, t = action.source, action.target
                attacker = replay.owner[s]
                if current is None or (current.source, current.target, current.attacker) != (s, t, attacker):
                    _close(current, False, players, blitzes, blitzing)
                    stop = action.stop_at if isinstance(action, Blitz) else 1
                    current = _Open(s, t, attacker, replay.owner[t], blitz_chance(replay, s, t, stop))
                    blitzing = isinstance(action, Blitz)
            elif isinstance(action, Roll) and replay.battle is not None:
                _count_roll(replay, action, players)
            elif not isinstance(action, Defend):
                _close(current, False, players, blitzes, blitzing)
                current = None
            continue
        if current is not None and replay.owner[current.target] == current.attacker:
            _close(current, True, players, blitzes, blitzing)
            current = None
    _close(current, False, players, blitzes, blitzing)
    return players, blitzes


def _count_roll(game: Game, roll: Roll, players: list[PlayerLuck]) -> None:
    battle = game.battle
    assert battle is not None
    rule = _roll_rule(game)
    attacker, defender = game.owner[battle.source], game.owner[battle.target]
    lost_a, lost_d = battle_losses(roll.attack, roll.defend, rule)
    exp_a, exp_d, var_a, var_d = _loss_moments(len(roll.attack), len(roll.defend), rule)
    for seat, lost, killed, e_lost, e_killed, v_lost in ((attacker, lost_a, lost_d, exp_a, exp_d, var_a),
                                                         (defender, lost_d, lost_a, exp_d, exp_a, var_d)):
        if 0 <= seat < len(players):
            p = players[seat]
            p.rolls += 1
            p.lost += lost
            p.destroyed += killed
            p.expected_lost += e_lost
            p.variance_lost += v_lost
            p.expected_destroyed += e_killed


def _audit(game: Game, dice: dict[str, Any] | None, blitzes: list[Battle]) -> AuditReport:
    records = ((n, json.loads(line)) for n, line in enumerate(dump_lines(game, dice), start=1))
    report = audit_records(records, "this game", keep_rolls=False, game_map=game.map)
    return dataclasses.replace(report, battles=battle_test(blitzes))


def verdict(report: AuditReport) -> tuple[str, bool | None]:
    """The audit in words, and fair (True), not (False) or too few rolls to tell (None)."""
    failures = report.failures()
    if failures:
        return (f"these dice do not look fair ({report.rolls} rolls): " + "; ".join(failures)
                + ". `conquista dice audit` on the game's log gives the details.", False)
    if not report.tests_run:
        return (f"too few rolls ({report.rolls}) to tell anything about the dice: lucky or not, "
                "a game this short says little.", None)
    # In words a player reads as good news: "passed ... (each at p < 0.0002)" read like a failure.
    return (f"nothing unusual: the {report.rolls} rolls look like fair dice in all {report.tests_run} checks for "
            "loaded or patterned dice. Streaks happen with fair dice.", True)


def _mission_words(game: Game, seat: int) -> str:
    """The mission dealt, and what it became when it could no longer be met (e.g. its colour was not playing)."""
    text = mission_text(game.missions[seat], game.rules.colours)
    m = effective_mission(game, seat)
    if m.destroy_colour is None and MISSIONS[game.missions[seat]].destroy_colour is not None:
        return f"{text} (could not be met: conquer {m.territories} territories)"
    return text


def luck_report(game: Game, dice: dict[str, Any] | None = None, start: Game | None = None,
                hints: dict[int, int] | None = None) -> LuckReport:
    """The report of `game` (usually over; a game still going gets one too). `dice`: the log header's dice
    description (its source, a commitment); `start`: see `tally`; `hints`: the hints each seat asked for."""
    players, blitzes = tally(game, start)
    report = _audit(game, dice, blitzes)
    words, fair = verdict(report)
    missions = tuple(_mission_words(game, seat) for seat in range(len(game.missions)))
    asked = tuple((game.rules.colours[seat], count) for seat, count in sorted((hints or {}).items()) if count)
    return LuckReport(tuple(players), missions, report.rolls, words, fair, report, asked)
