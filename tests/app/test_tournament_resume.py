"""The tournament ending chosen at the board's menu reaches the ruleset, the journal and a resume; the palette chosen
there lights the board and the next games; a resumed game's tournament clock goes on from the time of play the
journal's row times show (a switched-off board eats none of it)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from conquista.app.board_settings import SETTINGS_NAME
from conquista.app.build import build_table
from conquista.app.setup import NewGameAtBoard
from conquista.bots import GreedyBot
from conquista.dice.chance import new_game
from conquista.dice.sources import SeededDice
from conquista.hardware.profile import load_profile
from conquista.journal import GameJournal
from conquista.rules.actions import ClockOut, Place
from conquista.rules.engine import Game
from conquista.rules.mapdata import load_map
from conquista.rules.ruleset import Ruleset
from conquista.rules.rulesets import load_ruleset
from conquista.table.bot_player import BotSeats
from conquista.table.colours import Palette
from conquista.table.gestures import Button, Press
from conquista_sim.devices import MemoryStrip

MAP = load_map()
ROLL, CANCEL = Press(Button.ROLL), Press(Button.CANCEL)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def deal(rules: Ruleset, players: int) -> Game:
    return new_game(rules, MAP, players, random.Random(5))


def test_the_menus_tournament_and_palette_reach_the_game_the_journal_and_a_resume(tmp_path: Path) -> None:
    clock = Clock()
    journal = GameJournal(tmp_path, clock=clock)
    profile = load_profile(None, MAP)
    table = build_table(deal(load_ruleset("italian"), 3), profile, SeededDice(1), MemoryStrip.from_profile(profile),
                        journal=journal)
    referee = table.referee
    at_board = NewGameAtBoard(deal, BotSeats(lambda kind: GreedyBot()), table.router, journal=journal,
                              rules="italian")
    at_board.offer(referee)
    for t, gesture in enumerate((CANCEL, ROLL, CANCEL, ROLL, ROLL)):   # tournament on; colour-blind LEDs
        table.runner.handle(gesture, 1.0 + t)
    game = referee.game
    assert game.rules.tournament_ending and referee.palette is Palette.COLOUR_BLIND
    assert "with the tournament ending" in referee.message
    table.runner.advance(6.0)   # the board's loop keeps the palette chosen, for the next runs
    assert json.loads((tmp_path / SETTINGS_NAME).read_text()) == {"palette": "colour-blind"}
    # 40 s of play, journaled with the journal's clock; the referee's own clock is the board's (a fake here).
    for now in (10.0, 30.0, 50.0):
        clock.now += 20.0 if now > 10.0 else 0.0
        referee.tick(now)
        referee.apply_action(Place(game.owner.index(game.current)), now)
        table.runner.route(now)   # the shell routes it at once: journaled at the journal's clock
    times = journal.row_times()
    assert journal.flush() and len(times) == 4 and times[-1] - times[0] == 40.0
    game_id = journal.game_id
    assert game_id is not None
    journal.close()

    # The board is switched off for three hours; a new run resumes the game.
    clock.now += 3 * 3600.0
    again = GameJournal(tmp_path, clock=clock)
    resumed = again.resume(game_id)
    assert resumed.rules.tournament_ending   # the log header keeps the whole ruleset
    table = build_table(resumed, profile, SeededDice(1), MemoryStrip.from_profile(profile), journal=again)
    referee = table.referee
    referee.tick(0.0)
    assert referee.tournament.elapsed(referee, 0.0) == 40.0
    limit = resumed.rules.tournament_minutes * 60
    referee.tick(limit - 40.0 - 1.0)
    assert not any(isinstance(a, ClockOut) for a in referee.game.log)
    referee.tick(limit - 40.0)
    assert isinstance(referee.game.log[-1], ClockOut)
    # The next menu starts from the last choice: the tournament switch, and the board's palette (saved).
    at_board.offer(referee)
    assert referee.menu is not None
    assert referee.menu.tournament and referee.menu.palette is Palette.COLOUR_BLIND
    again.close()
