"""Each blitz's outcome against its exact probability: the log is replayed through the engine, which knows how
many armies stood on each side when the blitz began (a roll line alone does not say), and with fleets which units
fought (`rules.fleet_odds`: the link's units against the target's armies, then its fleets)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from conquista.errors import AuditError, ConquistaError
from conquista.rules.actions import Action, Blitz
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.fleet_odds import fleet_blitz_odds
from conquista.rules.gamelog import parse_log_lines
from conquista.rules.odds import conquest_chance

MIN_BATTLES = 20  # below this the normal approximation says little


@dataclass(frozen=True)
class Battle:
    line: int
    attacking: int
    defending: int
    stop_at: int
    conquered: bool
    probability: float


@dataclass(frozen=True)
class BattleTest:
    """Conquests observed over every blitz against the sum of their exact probabilities."""

    battles: int
    observed: int
    expected: float
    sd: float
    z: float
    p_value: float
    tested: bool
    note: str = ""


def battles_in_log(path: str | Path) -> list[Battle]:
    """Every blitz of a game log with its starting armies, stop level, result and exact conquest chance.
    Raises ConquistaError when the log cannot be replayed."""
    battles: list[Battle] = []
    # line, target, attacker, attacking, defending, stop and chance of the blitz being fought
    current: list[tuple[int, int, int, int, int, int, float]] = []

    def watch(line: int, action: Action, game: Game, applied: bool) -> None:
        if not applied:
            if isinstance(action, Blitz):
                s, t = action.source, action.target
                attacking, defending, stop = game.armies[s], game.armies[t], action.stop_at
                # The attacker is the source's owner: the current player, or the neutral army in its turn.
                current[:] = [(line, t, game.owner[s], attacking, defending, stop, blitz_chance(game, s, t, stop))]
            return
        if current and game.phase is not Phase.ROLL and game.phase is not Phase.DEFEND:
            start, target, attacker, attacking, defending, stop, chance = current.pop()
            battles.append(Battle(start, attacking, defending, stop, game.owner[target] == attacker, chance))

    try:
        lines = Path(path).read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConquistaError(f"{path}: cannot read the log ({exc})") from None
    parse_log_lines(lines, str(path), watch=watch)
    return battles


def blitz_chance(game: Game, source: int, target: int, stop: int) -> float:
    """The exact chance that a blitz about to start takes the target."""
    armies = game.armies
    if not game.rules.fleets:
        return conquest_chance(game.rules, armies[source], armies[target], stop)
    if stop < 1 or armies[source] < 1:
        return 0.0   # the engine refuses such a blitz: it never starts
    return fleet_blitz_odds(game.rules, armies[source], armies[target], stop,
                            attack_fleet=game.sails(source, target), usable=game.units_for_link(source, target),
                            defending_fleets=game.fleets[target]).attacker_wins


def battle_test(battles: Iterable[Battle]) -> BattleTest:
    items = list(battles)
    observed = sum(b.conquered for b in items)
    expected = sum(b.probability for b in items)
    variance = sum(b.probability * (1 - b.probability) for b in items)
    sd = math.sqrt(variance)
    if len(items) < MIN_BATTLES or variance <= 0:
        return BattleTest(len(items), observed, expected, sd, 0.0, 1.0, False,
                          f"fewer than {MIN_BATTLES} blitzes with an uncertain outcome")
    z = (observed - expected) / sd
    return BattleTest(len(items), observed, expected, sd, z, math.erfc(abs(z) / math.sqrt(2)), True)


def battle_test_for_log(path: str | Path, *, must_replay: bool = False) -> BattleTest:
    """The battle test of a log; a log that cannot be replayed (e.g. rolls only) is reported as not tested, unless
    `must_replay` (a whole game's log): then it is damaged, and AuditError names its first bad line."""
    try:
        battles = battles_in_log(path)
    except (ConquistaError, ValueError, KeyError) as exc:
        if must_replay:
            raise AuditError(f"{exc}; the game log is damaged (it does not replay to its end), so its dice are "
                             f"not audited") from None
        return BattleTest(0, 0, 0.0, 0.0, 0.0, 1.0, False, f"not replayable: {exc}")
    return battle_test(battles)
