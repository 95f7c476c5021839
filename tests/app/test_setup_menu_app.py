"""The app's side of the set-up menu and of switching off: the chosen game is dealt, journaled with its seats and
its bots seated; CANCEL at the resume prompt opens the menu; the runner reports NEXT held down and plays bots."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from conquista.app.power import switch_off
from conquista.app.routing import EffectRouter
from conquista.app.setup import NewGameAtBoard, bots_of, menu_options, seats_of
from conquista.bots import GreedyBot
from conquista.devices.events import PanelButton
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.journal import offer_resume
from conquista.rules.engine import Game
from conquista.rules.mapdata import load_map
from conquista.rules.ruleset import Ruleset
from conquista.table.bot_player import BotSeats
from conquista.table.effects import Answered, Effect, GameStarted
from conquista.table.gestures import Button, Gesture, Press, Turn
from conquista.table.referee import Referee
from conquista_sim import SimulatedTable
from tests.rules.helpers import dealt

MAP = load_map()
ROLL, CANCEL = Press(Button.ROLL), Press(Button.CANCEL)


class FakeJournal:
    def __init__(self) -> None:
        self.seats: tuple[str, ...] | None = None
        self.started: list[Game] = []
        self.abandoned = 0

    def start(self, game: Game) -> None:
        self.started.append(game)

    def abandon(self) -> None:
        self.abandoned += 1


def deal(rules: Ruleset, players: int) -> Game:
    return new_game(rules, MAP, players, random.Random(5))


class Shell:
    """A referee with the shell's router, as the board's runner drives it: a gesture's effects are routed at once."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.router = EffectRouter()
        self.seen: list[Effect] = []
        self.router.listeners.append(lambda _referee, effects: self.seen.extend(effects))

    def handle(self, gesture: Gesture, now: float) -> None:
        self.referee.handle(gesture, now)
        self.router.route(self.referee, now)


def test_seats_as_saved_and_back() -> None:
    assert seats_of(3, {1: "greedy"}) == ("human", "greedy", "human")
    assert bots_of(("human", "greedy", "random")) == {1: "greedy", 2: "random"} and bots_of(None) == {}
    assert [o.name for o in menu_options()] == sorted(o.name for o in menu_options())


def test_the_chosen_game_is_dealt_journaled_and_its_bots_seated() -> None:
    referee = Referee(dealt("italian", 3), SeededDice(1))
    journal = FakeJournal()
    bots = BotSeats(lambda kind: GreedyBot())
    shell = Shell(referee)
    at_board = NewGameAtBoard(deal, bots, shell.router, journal=journal, rules="classic", players=4)
    at_board.offer(referee)
    assert referee.menu is not None and referee.menu.option.name == "classic" and referee.menu.players == 4
    for t, gesture in enumerate((ROLL, Turn(-1), ROLL, Turn(2), CANCEL, ROLL)):
        shell.handle(gesture, 1.0 + t)
    assert referee.menu is None and referee.game is journal.started[-1]
    assert referee.game.rules.name == "classic" and referee.game.players == 3
    assert journal.seats == ("human", "human", "normal") and bots.kinds == {2: "normal"}
    # The phones follow the game started through its one effect (routed once to every companion).
    started = [e for e in shell.seen if isinstance(e, GameStarted)]
    assert started == [GameStarted(3, {2: "normal"})] and "classic for 3 players" in referee.message


def test_roll_after_a_finished_game_offers_the_menu_for_the_next() -> None:
    game = play_to_the_end(dealt("classic", 2, seed=4))
    referee = Referee(game, SeededDice(1))
    journal = FakeJournal()
    closed: list[str] = []
    shell = Shell(referee)
    at_board = NewGameAtBoard(deal, BotSeats(lambda kind: GreedyBot()), shell.router, journal=journal,
                              rules="classic", players=2)
    at_board.offer_after_game(referee, lambda: closed.append("finished"))
    assert referee.status().pending.endswith(" · ROLL: a new game")
    shell.handle(Press(Button.NEXT), 1.0)
    assert referee.menu is None and referee.message.endswith("won: ROLL for a new game")
    shell.handle(ROLL, 2.0)
    assert closed == ["finished"] and referee.menu is not None and referee.menu.option.name == "classic"
    for t in range(3):
        shell.handle(ROLL, 3.0 + t)   # classic, 2 players, both people
    assert referee.menu is None and referee.game is journal.started[-1] and not referee.game.over


def test_the_menu_after_a_finished_game_keeps_its_seats_and_bots() -> None:
    """Issue 39 §8: ROLL after a win opened the menu with every seat a person; it keeps the game's players and
    each bot at its level, and ROLL through the steps starts the next game with them."""
    game = play_to_the_end(dealt("classic", 3, seed=4))
    referee = Referee(game, SeededDice(1))
    journal = FakeJournal()
    shell = Shell(referee)
    bots = BotSeats(lambda kind: GreedyBot(), {1: "hard", 2: "easy"})
    at_board = NewGameAtBoard(deal, bots, shell.router, journal=journal, rules="classic", players=4)
    at_board.offer_after_game(referee, lambda: None)
    shell.handle(ROLL, 1.0)
    menu = referee.menu
    assert menu is not None and menu.players == 3
    for t in range(2):
        shell.handle(ROLL, 2.0 + t)
    assert "who plays: red person, blue bot (hard), yellow bot (easy)" in referee.status().pending
    shell.handle(ROLL, 4.0)
    assert referee.menu is None and referee.game is journal.started[-1] and referee.game.players == 3
    assert journal.seats == ("human", "hard", "easy") and bots.kinds == {1: "hard", 2: "easy"}


def test_without_a_menu_to_offer_roll_after_the_game_does_nothing() -> None:
    referee = Referee(play_to_the_end(dealt("classic", 2, seed=4)), SeededDice(1))
    before = referee.game.digest()
    referee.handle(ROLL, 1.0)
    assert referee.menu is None and referee.game.digest() == before
    assert "ROLL" not in referee.status().pending


def play_to_the_end(game: Game) -> Game:
    bot, dice = GreedyBot(), SeededDice(2)
    while not game.over:
        game.apply(bot.choose(game) if isinstance(game.to_move, int) else chance_action(game, dice))
    return game


def test_cancel_at_the_resume_prompt_opens_the_menu() -> None:
    referee = Referee(dealt("italian", 3), SeededDice(1))
    journal = FakeJournal()
    shell = Shell(referee)
    at_board = NewGameAtBoard(deal, BotSeats(lambda kind: GreedyBot()), shell.router, journal=journal)
    saved = SimpleNamespace(id=7, ruleset="italian", players=3, turn=12)
    shell.router.on(Answered, offer_resume(referee, journal, saved, lambda: deal(Ruleset, 3),  # type: ignore[arg-type]
                                           set_up=lambda now: at_board.offer(referee)))
    assert referee.prompt and referee.menu is None
    shell.handle(CANCEL, 1.0)
    assert journal.abandoned == 1 and referee.menu is not None and journal.started == []
    assert referee.status().pending.startswith("set-up 1/3")


def test_the_runner_reports_next_held_down_and_plays_the_bots() -> None:
    with SimulatedTable("italian", 2, seed=3) as table:
        runner, board = table.runner, table.board
        runner.bots = BotSeats(lambda kind: GreedyBot(), {0: "greedy", 1: "greedy"}, think_s=0.05)
        log = len(table.game.log)
        for _ in range(40):
            table.clock.advance(0.05)
            runner.step(board.sensors, board.panel, table.clock)
        assert len(table.game.log) > log
        runner.bots.seat({})
        board.press(PanelButton.NEXT)
        table.clock.advance(5.05)
        runner.step(board.sensors, board.panel, table.clock)
        assert table.referee.power_question           # asked while NEXT is still down
        board.release(PanelButton.NEXT)
        runner.step(board.sensors, board.panel, table.clock)
        assert table.referee.power_question           # ... and the release is not an answer


def test_the_shutdown_command_runs_or_is_reported() -> None:
    said: list[str] = []
    ran: list[list[str]] = []
    assert switch_off(("sudo", "systemctl", "poweroff"), said.append, lambda argv: ran.append(argv) or 0) == 0
    assert ran == [["sudo", "systemctl", "poweroff"]] and "running sudo systemctl poweroff" in said[-1]
    assert switch_off(None, said.append, lambda argv: ran.append(argv) or 0) == 0 and len(ran) == 1
    assert "shutdown_command" in said[-1]
    assert switch_off(("poweroff",), said.append, lambda argv: 1) == 1 and "status 1" in said[-1]

    def missing(argv: list[str]) -> int:
        raise FileNotFoundError(2, "No such file or directory")

    assert switch_off(("/no/such",), said.append, missing) == 2 and "could not run" in said[-1]
    assert switch_off(("poweroff",), said.append, missing, simulated=True) == 0
    assert "would now run: poweroff" in said[-1]


def test_the_simulator_switches_off_from_a_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conquista.cli import main

    script = tmp_path / "off.txt"
    script.write_text("alaska\noff\nroll\nalaska\n")
    assert main(["sim", "--script", str(script), "--seed", "3", "--data-dir", str(tmp_path / "data")]) == 0
    out = capsys.readouterr().out
    assert "switched off: the game is saved and the LEDs are dark" in out and "simulator runs nothing" in out
    assert "[line 4" not in out                  # nothing after the switch-off is played


def test_switching_off_the_simulated_board_saves_then_goes_dark(tmp_path: Path) -> None:
    from conquista.journal import GameJournal

    journal = GameJournal(tmp_path)
    with SimulatedTable("italian", 3, seed=3, journal=journal) as table:
        table.tap(table.game.map.id(table.game.owner.index(table.game.current)))
        table.hold("next", 5.2)
        assert table.referee.power_question and not table.referee.power_off
        table.press("roll")
        assert table.referee.power_off and any(c != (0, 0, 0) for c in table.ring())
        table.switch_off()
        assert set(table.ring()) == {(0, 0, 0)} and journal.store is not None
        assert journal.pending == 0 and journal.game_id is not None


def test_play_opens_at_the_menu_and_seats_the_chosen_bots(tmp_path: Path) -> None:
    import argparse

    from conquista.cli.play_cmd import _opening
    from conquista.cli.table_dice import TableDice
    from conquista.journal import open_for_play

    args = argparse.Namespace(rules="italian", players=3, bots=None, think=1.0)
    start = open_for_play(tmp_path, None, print)
    dice = TableDice("seeded", 1, start.journal, print)
    router = EffectRouter()
    game, bots, ask = _opening(args, start, dice, MAP, router, menu=True, warn=print)
    referee = Referee(game, SeededDice(1))
    ask(referee)
    assert referee.menu is not None
    for gesture in (ROLL, ROLL, Turn(2), CANCEL, ROLL):
        referee.handle(gesture, 1.0)
        router.route(referee, 1.0)
    assert referee.menu is None and bots.kinds == {2: "normal"} and start.journal.seats == ("human", "human",
                                                                                          "normal")
    start.journal.close()
    # Set up on the command line: no menu, every seat a person.
    again = open_for_play(tmp_path, None, print)
    dice = TableDice("seeded", 1, again.journal, print)
    game, bots, ask = _opening(args, again, dice, MAP, EffectRouter(), menu=False, warn=print)
    referee = Referee(game, SeededDice(1))
    ask(referee)
    assert referee.menu is None and bots.kinds == {} and again.journal.seats == ("human",) * 3
    again.journal.close()
