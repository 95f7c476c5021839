"""The tournament ending of RisiKo!'s official tournaments (docs/rules.md, "Tournament ending"), an option of every
ruleset (`tournament_ending`, off by default). Pure: no I/O, no random, no clock.

The referee keeps the tournament clock and applies `ClockOut()` when `tournament_status(elapsed)` says it is due:
that round is the second-to-last, the next one the last. From the end of the last round (its last player's turn) on,
at the end of each turn the game waits for a `ClosingRoll` (chance: two dice, which the board rolls): a total at or
under the closing number (4, then 1 more after each full round, up to 7) ends the game at once, unless the player
conquered more than two territories in that turn (no roll then). A game ended by the dice goes to the most points
(each territory held is worth its neighbours, counting only the territories the player's mission names, all of them
when it names none), then the most armies, then a further round between the tied players alone. Every number is a
ruleset parameter; the sources are public descriptions of the tournament rules, so every point is an
[interpretation].

The ending steps into the turn's flow as a `TurnFeature` (`TournamentEnding`, which the engine selects when the
ruleset has the ending): at the end of a turn it holds the game for the closing roll, or passes the turn within a
tie-break round.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from conquista.rules.actions import ClockOut, ClosingRoll
from conquista.rules.choices import Objective
from conquista.rules.events import ClosingRolled, Event, GameOver, TieBreakRound, TournamentClockOut
from conquista.rules.events import Phase as P
from conquista.rules.missions import effective_mission
from conquista.rules.position import Position, Steps, TurnFeature
from conquista.rules.turns import next_seat, pass_turn, start_turn

# The distinct closing rolls (the order of two dice never changes a total), high die first.
CLOSING_OUTCOMES = tuple(ClosingRoll((a, b)) for a in range(1, 7) for b in range(1, a + 1))


class Stage(Enum):
    """Where a tournament game stands."""

    CLOCK = "clock"                    # the clock is running
    SECOND_TO_LAST = "second_to_last"  # the round in which the clock ran out
    LAST = "last"                      # the round after it
    CLOSING = "closing"                # after the last round: a closing roll ends each turn
    TIE_BREAK = "tie_break"            # the dice ended the game in a tie: the tied players play one more round
    OVER = "over"


@dataclass(frozen=True)
class TournamentStatus:
    """What the board shows of a tournament game: `Game.tournament_status(elapsed_s)`."""

    seconds_left: float | None   # on the clock; None once it ran out (or the game is over)
    clock_out_due: bool          # the clock ran out and the table must apply `ClockOut()` now
    stage: Stage
    round: int
    closing_number: int | None   # the closing roll's number this round (from the first closing round on)
    points: tuple[int, ...]      # each seat's points now (0 for a seat eliminated)
    armies: tuple[int, ...]      # each seat's armies on the board (the first tie-break)


def territory_points(game: Position) -> tuple[int, ...]:
    """Each territory's worth: how many neighbours it has (the classic map totals 164)."""
    return tuple(len(n) for n in game.map.neighbours)


def scored_territories(game: Position, seat: int) -> list[int]:
    """The territories of `seat` that count for points: those its mission names, or every one held when the
    mission names none (a territory count, a colour to destroy; world domination). [interpretation] A mission's
    "third continent of choice" is the one that scores the seat the most points now (the first in map order on a
    tie)."""
    owner = game.owner
    held = [t for t in range(game.map.size) if owner[t] == seat]
    if game.rules.objective is not Objective.MISSIONS or not game.missions:
        return held
    mission = effective_mission(game, seat)
    if not mission.continents:
        return held
    worth = territory_points(game)
    named = [c for c in game.map.continents if c.id in mission.continents]
    others = sorted((c for c in game.map.continents if c.id not in mission.continents),
                    key=lambda c: -sum(worth[t] for t in c.territories if owner[t] == seat))
    chosen = {t for c in named + others[:mission.extra_continents] for t in c.territories}
    return [t for t in held if t in chosen]


def points(game: Position, seat: int) -> int:
    worth = territory_points(game)
    return sum(worth[t] for t in scored_territories(game, seat))


def seat_armies(game: Position, seat: int) -> int:
    owner, armies = game.owner, game.armies
    return sum(armies[t] for t in range(game.map.size) if owner[t] == seat)


def closing_number(game: Position) -> int | None:
    """The closing roll's number in this round, or None before the last round. The last player of the last
    round rolls first, at the first number; [interpretation] the number stays through the next round (the
    first full round of rolls) and rises by 1 after each full round from then on, up to the last number."""
    out = game.clock_out_round
    if not out or game.round < out + 1:
        return None
    rules = game.rules
    return min(rules.closing_number_last, rules.closing_number_first + max(0, game.round - (out + 2)))


def closing_roll_due(game: Position) -> bool:
    """At the end of a turn: from the last turn of the last round on, unless the player conquered more than
    `closing_roll_conquests_max` territories in it."""
    out = game.clock_out_round
    if not out or game.round < out + 1 or game.turn_conquests > game.rules.closing_roll_conquests_max:
        return False
    if game.round > out + 1:
        return True
    first, n = game.first_player, game.players  # in the last round, only the turn that ends it
    return (next_seat(game) - first) % n <= (game.current - first) % n


def stage(game: Position) -> Stage:
    out = game.clock_out_round
    if game.phase is P.OVER:
        return Stage.OVER
    if game.tiebreak:
        return Stage.TIE_BREAK
    if not out:
        return Stage.CLOCK
    if game.round <= out:   # out in the initial placement (round 0): round 1 is still the second-to-last
        return Stage.SECOND_TO_LAST
    return Stage.LAST if game.round == out + 1 else Stage.CLOSING


def status(game: Position, elapsed_s: float) -> TournamentStatus:
    """The tournament's clock, stage, closing number and points, given the seconds of play so far (the table
    keeps that time; the rules read no clock). `clock_out_due`: apply `ClockOut()` now."""
    limit = game.rules.tournament_minutes * 60
    running = game.rules.tournament_ending and not game.clock_out_round and not game.over
    return TournamentStatus(
        seconds_left=max(0.0, limit - elapsed_s) if running else None,
        clock_out_due=running and elapsed_s >= limit,
        stage=stage(game), round=game.round, closing_number=closing_number(game),
        points=tuple(0 if game.eliminated[s] else points(game, s) for s in range(game.players)),
        armies=tuple(seat_armies(game, s) for s in range(game.players)))


# ------------------------------------------------------------------------------------------------------- actions

def check_clock_out(game: Position, action: ClockOut) -> str | None:
    if not game.rules.tournament_ending:
        return f"{game.rules.name} has no tournament ending (tournament_ending = false)"
    if game.clock_out_round:
        return f"the tournament clock already ran out in round {game.clock_out_round}"
    return None


def apply_clock_out(game: Position, action: ClockOut, events: list[Event]) -> None:
    game.clock_out_round = max(game.round, 1)  # run out during the initial placement: round 1 is second-to-last
    events.append(TournamentClockOut(game.clock_out_round))


def check_closing_roll(game: Position, action: ClosingRoll) -> str | None:
    if game.phase is not P.CLOSING_ROLL:
        return "no closing roll is awaited"
    dice = action.dice
    if dice.__class__ is not tuple or len(dice) != 2 or any(d.__class__ is not int or not 0 < d < 7 for d in dice):
        return "the closing roll is two dice, each 1 to 6"
    if action.source.__class__ is not str:
        return f"the dice source is a name, not {action.source!r}"
    return None


def apply_closing_roll(game: Position, action: ClosingRoll, events: list[Event]) -> None:
    dice = action.dice
    number = closing_number(game)
    assert number is not None  # the closing roll is awaited only from the first closing round on
    ends = sum(dice) <= number
    events.append(ClosingRolled(game.current, dice, number, ends))
    if ends:
        _end_by_points(game, events, tuple(game.active_players()))
    else:
        pass_turn(game, events)


# ----------------------------------------------------------------------------------------------------- turn flow

class TournamentEnding(TurnFeature):
    """The tournament ending in the turn's flow: after the last round each turn ends with the closing roll, and a
    tie-break round passes the turn only among the tied players."""

    def passes_turn(self, game: Position, events: list[Event]) -> bool:
        if game.tiebreak:
            _next_tiebreak_turn(game, events)
            return True
        if closing_roll_due(game):
            game.phase = P.CLOSING_ROLL  # the board rolls the closing dice for the player who just played
            return True
        return False


def _end_by_points(game: Position, events: list[Event], among: tuple[int, ...]) -> None:
    """The dice ended the game (or a tie-break round did): the most points wins, then the most armies; a tie
    on both is played out in a further round between the tied players alone."""
    live = [s for s in among if not game.eliminated[s] and not game.left[s]] or game.active_players()
    score = {s: (points(game, s), seat_armies(game, s)) for s in live}
    best = max(score.values())
    top = [s for s in live if score[s] == best]
    if len(top) == 1:
        game.winner = top[0]
        game.over_reason = f"tournament points: {best[0]}"
        game.phase = P.OVER
        events.append(GameOver(top[0], game.over_reason))
        return
    # [interpretation] The tied players play in seat order from the one after the player who just played.
    top.sort(key=lambda s: (s - game.current - 1) % game.players)
    game.tiebreak = tuple(top)
    game.tiebreak_played = 0
    events.append(TieBreakRound(game.tiebreak))
    _next_tiebreak_turn(game, events)


def _next_tiebreak_turn(game: Position, events: list[Event]) -> None:
    order, played = game.tiebreak, game.tiebreak_played
    while played < len(order) and (game.eliminated[order[played]] or game.left[order[played]]):
        played += 1
    if played >= len(order):
        game.tiebreak_played = played
        _end_by_points(game, events, order)
        return
    game.tiebreak_played = played + 1
    start_turn(game, order[played], events, previous=game.current)


STEPS: Steps = {ClockOut: (check_clock_out, apply_clock_out), ClosingRoll: (check_closing_roll, apply_closing_roll)}
