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
table's clock what it times now.
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
from conquista.rules.position import is_index
from conquista.rules.tournament import TournamentRules

# The phases in which the current player is the one deciding: a time-out (or leaving) can end the turn there.
TURN_PHASES = (P.SETUP, P.REINFORCE, P.ELIMINATION_TRADE, P.ATTACK, P.OCCUPY, P.FORTIFY)
# The neutral steps a time-out (or the commander leaving) can end: its reinforcement, its attacks, its move-in.
NEUTRAL_STEP_PHASES = (P.NEUTRAL_REINFORCE, P.NEUTRAL_ATTACK, P.OCCUPY)
# What one run of the turn clock times: (turn, current player, the setup batch's reserve or -1, a neutral step).
ClockKey = tuple[int, int, int, bool]


class TableFeatureRules(TournamentRules):
    __slots__ = ()

    def border_territories(self, seat: int) -> list[int]:
        """The seat's territories next to another owner's, in map order (all the seat's when none is)."""
        owner, neighbours = self.owner, self.map.neighbours
        own = [t for t in range(self._size) if owner[t] == seat]
        border = [t for t in own if any(owner[n] != seat for n in neighbours[t])]
        return border or own

    def clock_key(self) -> ClockKey:
        """What one run of the turn clock is for: a turn of a player, one setup batch, or (decided 2026-11-26) the
        neutral steps of a turn, which the opponent plays on their own run of the clock [interpretation: the
        current player's run starts afresh when they end, as the steps are the opponent's time, not theirs]."""
        batch = self.reserve[self.current] if self.phase is P.SETUP else -1
        return self.turn, self.current, batch, self.rules.neutral_steps_never_wait and self.in_neutral_step()

    def turn_clock_runs(self) -> bool:
        """Whether the game is at a step the turn clock times (the table also stops it for a question, a fault,
        the set-up menu or dice being typed in): the current player's, a defender's choice, and with
        `neutral_steps_never_wait` the neutral steps."""
        phase = self.phase
        if phase in TURN_PHASES or phase is P.DEFEND:
            return True
        return self.rules.neutral_steps_never_wait and self.in_neutral_step()

    def spread_plan(self, owner: int | None = None) -> list[tuple[int, int]]:
        """(territory, armies) a time-out places now: the pool one army at a time round the border territories of
        `owner` (the current player; the neutral army for its reinforcements)."""
        targets = self.border_territories(self.current if owner is None else owner)
        pool = self.pool
        if not pool or not targets:
            return []
        each, extra = divmod(pool, len(targets))
        plan = [(t, each + (1 if i < extra else 0)) for i, t in enumerate(targets)]
        return [(t, n) for t, n in plan if n]

    def _time_out(self, action: TimeOut, events: list[Event] | None) -> None:
        if not self.rules.turn_time_limit_s:
            raise self.refusal(action, f"{self.rules.name} has no turn time limit")
        neutral_step = self.rules.neutral_steps_never_wait and self.in_neutral_step()
        if self.phase not in (NEUTRAL_STEP_PHASES if neutral_step else TURN_PHASES):
            raise self.refusal(action, "the time-out waits for the defender's dice, the roll or the card draw")
        if events is None:
            return
        if neutral_step:  # the opponent's time for the neutral steps: they end, the current player's turn goes on
            self._end_neutral_steps(events, timed_out=True)
            return
        events.append(TurnTimedOut(self.current))
        self._finish_turn(events)

    def _leave(self, action: Leave, events: list[Event] | None) -> None:
        if not self.rules.players_may_leave:
            raise self.refusal(action, f"players may not leave in {self.rules.name}")
        seat = action.seat
        if not is_index(seat, self.players):
            raise self.refusal(action, f"{seat!r} is not a seat of {self.players}")
        if self.eliminated[seat] or self.left[seat]:
            raise self.refusal(action, f"{self.rules.colours[seat]} is no longer playing")
        if self.phase is P.SETUP:
            raise self.refusal(action, "players leave once the initial placement is over")
        if seat == self.current and self.phase not in TURN_PHASES:
            raise self.refusal(action, "wait for the defender's dice, the roll or the card draw")
        if not any(p != seat for p in self.active_players()):
            raise self.refusal(action, "the last player still playing cannot leave")
        if events is None:
            return
        self.change(self.left, seat, True)
        events.append(PlayerLeft(seat))
        battle = self.battle
        if seat == self.current:
            self._finish_turn(events)
        elif self.neutral_commander_gone() and self.in_neutral_step():
            self._end_neutral_steps(events, timed_out=False)
        elif self.phase is P.DEFEND and battle is not None and self.defends_by_itself(self.owner[battle.target]):
            self.battle = battle._replace(defend_dice=self.max_defend_dice(battle.target))
            self.phase = P.ROLL

    # The neutral steps never wait for a commander who left (decided 2026-11-26): these two steps of the turn
    # (rules/turns.py) are played for them as `_end_neutral_steps` says.

    def _after_reinforcement(self, events: list[Event]) -> None:
        super()._after_reinforcement(events)
        if self.phase is P.NEUTRAL_REINFORCE and self.neutral_commander_gone():
            self._end_neutral_steps(events, timed_out=False)

    def _start_neutral_attack(self, events: list[Event]) -> None:
        if self.neutral_commander_gone():
            self.phase = P.ATTACK
            events.append(PhaseStarted(self.current, P.ATTACK))
            return
        super()._start_neutral_attack(events)

    def _end_neutral_steps(self, events: list[Event], timed_out: bool) -> None:
        """The neutral steps of this turn end without their commander: unplaced neutral reinforcements are spread
        over the neutral army's border territories as a time-out spreads a player's, a neutral move-in keeps its
        minimum, a neutral attack not rolled yet is called off, and the current player attacks."""
        neutral = self.neutral
        assert neutral is not None  # only a game with the neutral army has neutral steps
        events.append(NeutralStepsEnded(self.opponent(), timed_out))
        battle = self.battle
        if self.phase is P.NEUTRAL_REINFORCE:
            for t, count in self.spread_plan(neutral):
                self.change(self.armies, t, self.armies[t] + count)
                self.placed_total += count
                self.pool -= count
                events.append(ArmiesPlaced(neutral, t, count))
        elif self.phase is P.OCCUPY and battle is not None:
            events.append(ArmiesMoved(battle.source, battle.target, self.armies[battle.target]))
        self.battle = None
        self.phase = P.ATTACK
        events.append(PhaseStarted(self.current, P.ATTACK))

    def _finish_turn(self, events: list[Event]) -> None:
        """End the current player's turn (or setup batch) now: the move-in at its minimum, the pool spread."""
        battle = self.battle
        if self.phase is P.OCCUPY and battle is not None:
            events.append(ArmiesMoved(battle.source, battle.target, self.armies[battle.target]))
            self.battle = None
            self.phase = P.ATTACK
            if self.turn_state.taken_cards or self.turn_state.forced_trade_down_to is not None:
                self.turn_state = self.turn_state._replace(taken_cards=(), forced_trade_down_to=None)
        for t, count in self.spread_plan():
            self.change(self.armies, t, self.armies[t] + count)
            self.placed_total += count
            self.pool -= count
            events.append(ArmiesPlaced(self.current, t, count))
        if self.phase is P.SETUP:
            nxt = self._next_with_reserve(self.current)
            if nxt is None:
                self._start_turn(self.first_player, events)
            else:
                self.current = nxt
                self._start_setup_batch()
                events.append(PhaseStarted(nxt, P.SETUP))
            return
        self._check_win(events)
        if not self.over:
            self._end_turn(events)
