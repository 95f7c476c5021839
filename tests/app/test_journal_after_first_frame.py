"""`run_board(journal_later=...)` (issue 22, `play --new`): the first frame is on the strip before the journal opens,
and the journal follows the game before the board takes its first input, so nothing applied is ever unsaved."""

from __future__ import annotations

import random
from pathlib import Path

from conquista.app.board import BoardDevices, JournalToOpen, run_board
from conquista.app.routing import EffectRouter
from conquista.devices.events import Edge, SensorEvent
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.hardware.profile import load_profile
from conquista.journal import GameJournal, journal_path
from conquista.rules.mapdata import load_map
from conquista.rules.rulesets import load_ruleset
from conquista.table.gestures import Button, HeldDown, Press
from conquista.table.referee import Referee
from conquista_sim.devices import FakeBoard


def test_the_journal_opens_after_the_first_frame_and_before_any_input(tmp_path: Path) -> None:
    game_map = load_map()
    profile = load_profile(None, game_map)
    game = new_game(load_ruleset("classic"), game_map, 2, random.Random(4))
    board = FakeBoard(profile, defer_gpio=True)
    devices = BoardDevices(board.sensors, board.panel, board.strip, board.buzzer, [board.close])
    frames_at_open: list[int] = []
    opened: list[GameJournal] = []
    order: list[str] = []
    router = EffectRouter()   # where the referee's effects leave: the journal first, once it follows the game

    def open_journal() -> GameJournal:
        if not opened:
            frames_at_open.append(board.strip.shown)
            opened.append(GameJournal(tmp_path))
        return opened[0]

    def first_pass(referee: Referee, now: float) -> None:
        # The loop's first pass: the journal already follows the game (its deal is saved with its first action).
        order.append("loop")
        assert router.journal is opened[0] and opened[0].row_times() != []
        referee.step(HeldDown(Button.NEXT), now)   # the players switch the board off: NEXT held, ROLL
        referee.step(Press(Button.ROLL), now)

    # A tap waiting in the inbox before the board starts is handled only by the loop, after the journal attached.
    from conquista.app.board_loop import BoardInbox

    inbox = BoardInbox()
    inbox.put(SensorEvent(0, Edge.PRESS, 0.0))
    referee = run_board(game, profile, SeededDice(1), devices=devices, inbox=inbox, on_step=first_pass, router=router,
                        journal_later=JournalToOpen(journal_path(tmp_path), open_journal),
                        after_first_frame=lambda: order.append("after first frame"))
    assert frames_at_open == [1]                   # the first frame came before the journal opened
    assert order == ["after first frame", "loop"]
    journal = opened[0]
    assert len(journal.row_times()) == len(referee.game.log)     # every action applied is journaled
    assert board.strip.closed                      # run_board closed the devices it was given
