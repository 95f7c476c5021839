"""The networked table's rules (docs/rules.md, "Table features") that end a turn from outside the game: a player who
leaves and a turn whose time ran out. Pure: no I/O, no random, no clock — the referee owns the clock and applies
`TimeOut()` when the time is up; the engine only derives, deterministically, what the time-out does, so replay
reproduces it exactly.

A time-out: unplaced armies are spread over the player's border territories (own territories next to an enemy one;
all of them when none is), one at a time in map order [interpretation]; a move-in takes its minimum
(already on the conquered territory); then the turn passes as NEXT would pass it (a card is drawn after a
conquest). A defender's pending choice is the referee's to settle first (it applies `Defend` with the most dice).

A player who leaves: their armies stay and only defend, always with the most dice (also when the ruleset lets
defenders choose); their turns are skipped; they are eliminated normally (the conqueror takes their cards); a leaver
never wins; they draw no card for the turn they leave in. Leaving on one's own turn ends it as a time-out does.

With the neutral army (`neutral_steps_never_wait`, decided 2026-11-26) the game never waits for the opponent who
acts for it: a leaver plays no neutral step (its reinforcements are spread over its border as a time-out spreads
armies, its attacks are skipped, its defence rolls the most dice), and the turn clock also times the neutral steps,
which a time-out ends the same way (not the current player's turn). `clock_key()` and `turn_clock_runs()` tell the
table's clock what it times now. The neutral steps that never wait step into the turn's flow as a `TurnFeature`
(`NeutralStepsNeverWait`, which the engine selects for a ruleset with the neutral army and that decision).
"""

from __future__ import annotations

from conquista.rules.actions import Leave, TimeOut
from conquista.rules.events import (
    ArmiesMoved,
    ArmiesPlaced,
    Event,
    NeutralStepsEnded,
    PhaseStarted,
    PlayerLeft,
    TurnTimedOut,
)
from conquista.rules.events import Phase as P
from conquista.rules.position import Position, Steps, TurnFeature, is_index
from conquista.rules.turns import check_win, end_turn, pass_setup_batch

# The phases in which the current player is the one deciding: a time-out (or leaving) can end the turn there.
TURN_PHASES = (P.SETUP, P.REINFORCE, P.ELIMINATION_TRADE, P.ATTACK, P.OCCUPY, P.FORTIFY)
# The neutral steps a time-out (or the commander leaving) can end: its reinforcement, its attacks, its move-in.
NEUTRAL_STEP_PHASES = (P.NEUTRAL_REINFORCE, P.NEUTRAL_ATTACK, P.OCCUPY)
# What one run of the turn clock times: (turn, current player, the setup batch's reserve or -1, a neutral step).
ClockKey = tuple[int, int, int, bool]


def clock_key(game: Position) -> ClockKey:
    """What one run of the turn clock is for: a turn of a player, one setup batch, or (decided 2026-11-26) the
    neutral steps of a turn, which the opponent plays on their own run of the clock [interpretation: the
    current player's run starts afresh when they end, as the steps are the opponent's time, not theirs]."""
    batch = game.reserve[game.current] if game.phase is P.SETUP else -1
    return game.turn, game.current, batch, game.rules.neutral_steps_never_wait and game.in_neutral_step()


def turn_clock_runs(game: Position) -> bool:
    """Whether the game is at a step the turn clock times (the table also stops it for a question, a fault,
    the set-up menu or dice being typed in): the current player's, a defender's choice, and with
    `neutral_steps_never_wait` the neutral steps."""
    phase = game.phase
    if phase in TURN_PHASES or phase is P.DEFEND:
        return True
    return game.rules.neutral_steps_never_wait and game.in_neutral_step()


def spread_plan(game: Position, owner: int | None = None) -> list[tuple[int, int]]:
    """(territory, armies) a time-out places now: the pool one army at a time round the border territories of
    `owner` (the current player; the neutral army for its reinforcements)."""
    targets = game.border_territories(game.current if owner is None else owner)
    pool = game.pool
    if not pool or not targets:
        return []
    each, extra = divmod(pool, len(targets))
    plan = [(t, each + (1 if i < extra else 0)) for i, t in enumerate(targets)]
    return [(t, n) for t, n in plan if n]


# ------------------------------------------------------------------------------------------------------- actions

def check_time_out(game: Position, action: TimeOut) -> str | None:
    if not game.rules.turn_time_limit_s:
        return f"{game.rules.name} has no turn time limit"
    neutral_step = game.rules.neutral_steps_never_wait and game.in_neutral_step()
    if game.phase not in (NEUTRAL_STEP_PHASES if neutral_step else TURN_PHASES):
        return "the time-out waits for the defender's dice, the roll or the card draw"
    return None


def apply_time_out(game: Position, action: TimeOut, events: list[Event]) -> None:
    if game.rules.neutral_steps_never_wait and game.in_neutral_step():
        # The opponent's time for the neutral steps: they end, the current player's turn goes on.
        _end_neutral_steps(game, events, timed_out=True)
        return
    events.append(TurnTimedOut(game.current))
    _finish_turn(game, events)


def check_leave(game: Position, action: Leave) -> str | None:
    if not game.rules.players_may_leave:
        return f"players may not leave in {game.rules.name}"
    seat = action.seat
    if not is_index(seat, game.players):
        return f"{seat!r} is not a seat of {game.players}"
    if game.eliminated[seat] or game.left[seat]:
        return f"{game.rules.colours[seat]} is no longer playing"
    if game.phase is P.SETUP:
        return "players leave once the initial placement is over"
    if seat == game.current and game.phase not in TURN_PHASES:
        return "wait for the defender's dice, the roll or the card draw"
    if not any(p != seat for p in game.active_players()):
        return "the last player still playing cannot leave"
    return None


def apply_leave(game: Position, action: Leave, events: list[Event]) -> None:
    seat = action.seat
    game.change(game.left, seat, True)
    events.append(PlayerLeft(seat))
    battle = game.battle
    if seat == game.current:
        _finish_turn(game, events)
    elif game.neutral_commander_gone() and game.in_neutral_step():
        _end_neutral_steps(game, events, timed_out=False)
    elif game.phase is P.DEFEND and battle is not None and game.defends_by_itself(game.owner[battle.target]):
        game.battle = battle._replace(defend_dice=game.max_defend_dice(battle.target))
        game.phase = P.ROLL


# ----------------------------------------------------------------------------------------------------- turn flow

class NeutralStepsNeverWait(TurnFeature):
    """The neutral steps never wait for a commander who left (decided 2026-11-26): its reinforcements are spread
    as `_end_neutral_steps` says and its attacks are skipped."""

    def neutral_reinforcement_announced(self, game: Position, events: list[Event]) -> None:
        if game.neutral_commander_gone():
            _end_neutral_steps(game, events, timed_out=False)

    def skips_neutral_attack(self, game: Position) -> bool:
        return game.neutral_commander_gone()


def _end_neutral_steps(game: Position, events: list[Event], timed_out: bool) -> None:
    """The neutral steps of this turn end without their commander: unplaced neutral reinforcements are spread
    over the neutral army's border territories as a time-out spreads a player's, a neutral move-in keeps its
    minimum, a neutral attack not rolled yet is called off, and the current player attacks."""
    neutral = game.neutral
    assert neutral is not None  # only a game with the neutral army has neutral steps
    events.append(NeutralStepsEnded(game.opponent(), timed_out))
    battle = game.battle
    if game.phase is P.NEUTRAL_REINFORCE:
        for t, count in spread_plan(game, neutral):
            game.change(game.armies, t, game.armies[t] + count)
            game.placed_total += count
            game.pool -= count
            events.append(ArmiesPlaced(neutral, t, count))
    elif game.phase is P.OCCUPY and battle is not None:
        events.append(ArmiesMoved(battle.source, battle.target, game.armies[battle.target]))
    game.battle = None
    game.phase = P.ATTACK
    events.append(PhaseStarted(game.current, P.ATTACK))


def _finish_turn(game: Position, events: list[Event]) -> None:
    """End the current player's turn (or setup batch) now: the move-in at its minimum, the pool spread."""
    battle = game.battle
    if game.phase is P.OCCUPY and battle is not None:
        events.append(ArmiesMoved(battle.source, battle.target, game.armies[battle.target]))
        game.battle = None
        game.phase = P.ATTACK
        if game.turn_state.taken_cards or game.turn_state.forced_trade_down_to is not None:
            game.turn_state = game.turn_state._replace(taken_cards=(), forced_trade_down_to=None)
    for t, count in spread_plan(game):
        game.change(game.armies, t, game.armies[t] + count)
        game.placed_total += count
        game.pool -= count
        events.append(ArmiesPlaced(game.current, t, count))
    if game.phase is P.SETUP:
        pass_setup_batch(game, events)
        return
    check_win(game, events)
    if not game.over:
        end_turn(game, events)


STEPS: Steps = {TimeOut: (check_time_out, apply_time_out), Leave: (check_leave, apply_leave)}
