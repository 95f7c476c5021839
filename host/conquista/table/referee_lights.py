"""What the table shows: the status in words and every light at a moment (territories, dice panel, ring), read
from the table's state (table/table_state.py); table/ring.py draws the ring's shapes. Pure: time is passed in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.rules.events import PLACING_PHASES, Phase
from conquista.table import unit_kinds as units
from conquista.table.colours import FAULT, NEUTRAL, OFF, illegal_blink, player_rgb, selection_pulse
from conquista.table.dealt import deal_blink
from conquista.table.prompt_words import pending_text
from conquista.table.referee_records import (
    ATTACKING,
    BLINK_PERIOD_S,
    DiceRow,
    EffectKind,
    LightEffect,
    MessageKind,
    Scene,
    Status,
)
from conquista.table.ring import (
    Ring,
    blink_on,
    count_ring,
    dice_ring,
    phase_ring,
    with_claim_signal,
    with_trade_signal,
)

if TYPE_CHECKING:
    from conquista.table.table_state import TableState


def status(referee: TableState) -> Status:
    game = referee.game
    # The journal's disk fault holds until the disk takes writes again: it is said over a passing notice (a step the
    # table took itself, a seat granted), never over a refusal, which says why the gesture just made did nothing.
    warns = bool(referee.storage_fault) and (not referee.message or referee.message_kind is MessageKind.NOTICE)
    return Status(
        player=game.current,
        colour=referee.seat_name(game.current),
        phase="set-up" if referee.menu is not None else game.phase.value,
        pending=pending_text(referee),
        message=referee.storage_fault if warns else referee.message,
        message_kind=MessageKind.WARNING if warns else referee.message_kind,
        turn=game.turn,
        round=game.round,
        pool=game.pool,
        chance=conquest_chance(referee),
        winner=game.winner,
        time_left=referee.time_left(referee.now),
        left=tuple(p for p in range(game.players) if game.left[p]),
        claim=claim_text(referee),
        # Its own line on every screen (the clock changes every second: the screens count it down themselves).
        tournament=referee.tournament.status(referee, referee.now),
    )


def claim_text(referee: TableState) -> str:
    claim = referee.claims.open
    if claim is None:
        return ""
    colour = referee.game.rules.colours[claim.seat] if claim.seat < referee.game.players else f"seat {claim.seat}"
    return f"a phone asks for the {colour} seat: ROLL and NEXT pressed together grant it"



def conquest_chance(referee: TableState) -> float | None:
    game = referee.game
    if game.phase not in ATTACKING or referee.source < 0 or referee.target < 0:
        return None
    return units.conquest_chance(game, referee.source, referee.target)


def scene(referee: TableState, now: float) -> Scene:
    """Every light at time `now`. Animations are functions of time, so tests step time."""
    game = referee.game
    owner, rules = game.owner, game.rules
    colours = [player_rgb(c, referee.palette) for c in rules.colours]
    if referee.menu is not None:  # no game yet: the map stays dark
        return Scene(tuple(OFF for _ in owner), (None,) * 3, (None,) * 3, referee_ring(referee, now))
    # A territory not dealt yet (owner -1, lamorisse-1954) stays dark; the neutral army has its own colour.
    neutral = game.neutral
    territories = [OFF if o < 0 else NEUTRAL if o == neutral else colours[o] for o in owner]
    # A newly dealt territory blinks in its owner's colour until someone taps it: its army is on the board.
    for t in referee.dealt.blinking(game):
        territories[t] = deal_blink(territories[t], now)
    # A selected territory swaps its colour with the selection colour (dimming it could turn white into the
    # neutral army's grey).
    selection = referee.selection
    for t in (selection.source, selection.target):
        if t >= 0:
            territories[t] = selection_pulse(territories[t], now)
    if game.phase is Phase.OCCUPY and game.battle is not None:
        territories[game.battle.target] = selection_pulse(territories[game.battle.target], now)
    for effect in referee.effects:   # read only: the referee's tick forgets the finished ones (`live_effects`)
        age = now - effect.start
        if effect.kind is EffectKind.ILLEGAL:
            blink = illegal_blink(age)
            if blink is not None:
                territories[effect.territory] = blink
        elif 0 <= age < effect.count * BLINK_PERIOD_S:
            if (age % BLINK_PERIOD_S) < BLINK_PERIOD_S / 2:
                territories[effect.territory] = OFF
    attack, defend = dice_values(referee)
    return Scene(tuple(territories), attack, defend, referee_ring(referee, now))


def live_effects(effects: tuple[LightEffect, ...], now: float) -> tuple[LightEffect, ...]:
    """The light effects still showing at `now` (a refused tap's flash, the blinks of armies lost)."""
    return tuple(e for e in effects if (illegal_blink(now - e.start) is not None if e.kind is EffectKind.ILLEGAL
                                        else now - e.start < e.count * BLINK_PERIOD_S))


def dice_values(referee: TableState) -> tuple[DiceRow, DiceRow]:
    """The dice panel: the last roll, each side's dice sorted high to low as they are compared (the highest
    attack die against the highest defence die), or the physical dice in the order they are typed in."""
    attack, defend = sorted(referee.last_roll[0], reverse=True), sorted(referee.last_roll[1], reverse=True)
    if referee.entry is not None:
        entered = [*referee.entry.values, referee.entry.current]
        attack, defend = entered[: referee.entry.attack], entered[referee.entry.attack:]
    a = [*attack, None, None, None]
    d = [*defend, None, None, None]
    return (a[0], a[1], a[2]), (d[0], d[1], d[2])


def referee_ring(state: TableState, now: float) -> Ring:
    """The whole ring at time `now`."""
    mode = state.mode
    ring = mode.ring(state, now)   # the mode's: a question, a fault, the menu, or the game's
    if not mode.ring_marks:          # the power-off question and a fault hold the whole ring
        return ring
    claim = state.claims.open
    if claim is not None and claim.seat < len(state.game.rules.colours):
        ring = with_claim_signal(ring, player_rgb(state.game.rules.colours[claim.seat]), now)
    if state.storage_fault:
        # Every other LED blinks the fault colour: the players still see whose turn it is, and play goes on.
        return tuple(FAULT if blink_on(now) and i % 2 == 0 else c for i, c in enumerate(ring))
    return ring


def game_ring(state: TableState, now: float) -> Ring:
    n = state.ring_size
    game = state.game
    colours = [player_rgb(c, state.palette) for c in game.rules.colours]
    if game.winner is not None:
        return tuple(colours[game.winner] for _ in range(n))
    to_move = game.to_move
    me = colours[to_move if isinstance(to_move, int) else game.current]
    phase = game.phase
    sel = state.selection
    selected = sel.target >= 0
    if phase in PLACING_PHASES:
        ring = count_ring(n, me, game.pool) if game.pool else phase_ring(n, me, 0)
        if phase is not Phase.SETUP and game.valid_trades():
            ring = with_trade_signal(ring, now)
        return ring
    if (phase is Phase.ATTACK or phase is Phase.NEUTRAL_ATTACK) and selected:
        return dice_ring(n, me, sel.count, game.max_attack_dice(sel.source))
    if phase is Phase.DEFEND and game.battle is not None:
        return dice_ring(n, me, sel.defence, game.max_defend_dice(game.battle.target))
    if phase is Phase.OCCUPY or (phase is Phase.FORTIFY and selected):
        return count_ring(n, me, sel.count)
    return phase_ring(n, me, 2 if phase is Phase.FORTIFY else 1)
