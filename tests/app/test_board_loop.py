"""The event-driven board loop: an input wakes it and is handled in that pass, a frame goes out only when the
scene changed, and it waits no longer than the next animation step (no fixed-rate polling)."""

from __future__ import annotations

import random

from conquista.app.board_loop import ANIMATION_STEP_S, IDLE_S, BoardInbox, BoardLoop
from conquista.app.build import build_table
from conquista.devices.events import Edge, SensorEvent
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.hardware.profile import load_profile
from conquista.rules.events import Phase
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.dealt import NewlyDealt
from conquista.table.gestures import Button, Press, Tap
from conquista.table.referee_records import Selection
from conquista.web.companion import Companion, SeatGesture
from conquista.web.seats import SeatBook
from conquista_sim.devices import FakeClock, MemoryStrip


def loop_for(players: int = 3) -> tuple[BoardLoop, MemoryStrip, FakeClock]:
    game_map = load_map()
    profile = load_profile(None, game_map)
    game = new_game(load_ruleset("classic"), game_map, players, random.Random(4))
    strip = MemoryStrip.from_profile(profile)
    table = build_table(game, profile, SeededDice(seed=4), strip)
    clock = FakeClock()
    return BoardLoop(table.runner, clock, BoardInbox()), strip, clock


def tap(loop: BoardLoop, clock: FakeClock, territory: int) -> None:
    loop.inbox.put(SensorEvent(territory, Edge.PRESS, clock.now()))
    clock.advance(0.1)
    loop.inbox.put(SensorEvent(territory, Edge.RELEASE, clock.now()))


def test_a_tap_in_the_inbox_is_handled_in_the_pass_it_wakes() -> None:
    loop, strip, clock = loop_for()
    game = loop.runner.referee.game
    loop.pass_once()
    mine = game.owner.index(game.current)
    tap(loop, clock, mine)
    before = len(game.log)
    loop.pass_once()
    assert len(game.log) == before + 1 and game.armies[mine] == 2
    assert strip.shown == loop.frames


def test_an_unchanged_scene_sends_no_frame_and_an_idle_board_waits_long() -> None:
    loop, strip, clock = loop_for()
    referee = loop.runner.referee
    referee.dealt = NewlyDealt()            # nothing blinks
    loop.pass_once()
    sent = strip.shown
    assert sent == 1
    for _ in range(3):
        clock.advance(0.3)
        loop.pass_once()
    assert strip.shown == sent              # the same scene: no frame
    assert loop._next_timeout(clock.now()) == IDLE_S
    game = referee.game
    assert game.phase is Phase.SETUP
    referee.hold(Selection(source=game.owner.index(game.current)))   # a pulsing selection: the next animation step
    referee.version += 1                    # held behind the step: the view is made again for a new version
    assert loop._next_timeout(clock.now()) == ANIMATION_STEP_S


def test_a_phones_command_wakes_the_loop() -> None:
    loop, _strip, _clock = loop_for()
    companion = Companion(SeatBook(3))
    companion.wake = loop.inbox.wake
    companion.submit(SeatGesture(0, Press(Button.NEXT)))
    assert loop.inbox.take(0.0)          # something waits: the loop's next wait returns at once


def test_a_taps_frame_is_sent_before_the_phones_step_and_a_phones_command_is_shown_in_its_pass() -> None:
    loop, strip, clock = loop_for()
    referee = loop.runner.referee
    referee.dealt = NewlyDealt()            # nothing blinks: only changes make frames
    game = referee.game
    loop.pass_once()
    companion = Companion(SeatBook(3))
    companion.seats.grant(game.current)
    seen_at_step: list[int] = []

    def on_step(ref: object, now: float) -> None:
        seen_at_step.append(strip.shown)
        companion.step(referee, now)

    loop.on_step = on_step
    companion.wake = loop.inbox.wake
    mine = game.owner.index(game.current)
    tap(loop, clock, mine)
    before = strip.shown
    loop.pass_once()
    assert seen_at_step[-1] == before + 1   # the tap's frame was on the strip before the phones' step ran
    placed = len(game.log)
    companion.submit(SeatGesture(game.current, Tap(game.owner.index(game.current))))
    shown = strip.shown
    loop.pass_once()
    assert len(game.log) == placed + 1 and strip.shown == shown + 1   # the phone's tap shows in the pass it woke
