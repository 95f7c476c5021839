"""The terminal view: name lookup, command parsing, scripted sessions, the demo, and the `sim` command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from conquista.errors import ConquistaError
from conquista.rules.mapdata import load_map
from conquista.table.questions import QuestionKind, TableQuestion
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from conquista_sim.names import NameIndex, completer
from conquista_sim.terminal import COMMANDS, TerminalBoard, parse_command, run_interactive, run_script

NAMES = NameIndex(load_map())


@pytest.mark.parametrize(
    ("typed", "territory"),
    [("alaska", "alaska"), ("Perù", "peru"), ("PERU", "peru"), ("Stati Uniti Orientali", "eastern_us"),
     ("Territori del Nord Ovest", "northwest_territory"), ("madag", "madagascar"), ("Groenlandia", "greenland")],
)
def test_names_in_english_or_italian(typed: str, territory: str) -> None:
    assert NAMES.resolve(typed) == territory


def test_ambiguous_and_unknown_names() -> None:
    with pytest.raises(ConquistaError, match="could be"):
        NAMES.resolve("western")
    with pytest.raises(ConquistaError, match="no territory or command 'atlantis'"):
        NAMES.resolve("atlantis")


def test_commands() -> None:
    assert parse_command("roll", NAMES).kind == "press"
    assert parse_command("blitz", NAMES).arg == "roll" and parse_command("blitz", NAMES).kind == "hold"
    assert parse_command("+3", NAMES).number == 3 and parse_command("-2", NAMES).number == -2
    assert parse_command("long brasile", NAMES).arg == "brazil"
    assert parse_command("wait 2.5", NAMES).number == 2.5
    assert parse_command("push", NAMES).arg == "encoder"


def test_script_plays_the_persons_moves() -> None:
    lines: list[str] = []
    with SimulatedTable("classic", 2, seed=3, bots=(1,), think_time=0.2) as table:
        while table.game.current != 0:
            table.advance(0.2)
        mine = table.game.map.id(table.game.owner.index(0))
        pool = table.game.pool
        run_script(table, [f"{mine}   # tap my territory", f"+{pool - 1}", "next"], lines.append)
        assert table.game.armies[table.game.map.index(mine)] >= pool  # the whole setup reserve went there
        # The bot then placed its own; back at the person's reinforcement, NEXT is refused with a reason.
        assert table.game.phase.value == "reinforce" and table.game.current == 0
        assert any(line.startswith("[line 3: next]") for line in lines)


def test_script_errors_name_the_line() -> None:
    with SimulatedTable("classic", 2, seed=3) as table, pytest.raises(ConquistaError, match="script line 2"):
        run_script(table, ["wait 1", "atlantis"], print)


def test_render_shows_every_territory_and_the_panel() -> None:
    with SimulatedTable("italian", 3, seed=1) as table:
        console = Console(width=160, record=True, color_system="truecolor")
        console.print(render(table))
        text = console.export_text()
        assert "Alaska" in text and "Madagas" in text and "dice" in text and "ring" in text
        assert "place 3 armies" in text


def test_interactive_session_with_typed_lines() -> None:
    with SimulatedTable("classic", 2, seed=8, bots=(1,), think_time=0.2) as table:
        typed = iter(["help", "atlantis", "quit"])
        console = Console(width=160, record=True)
        run_interactive(table, console, read=lambda prompt: next(typed), speed=0)
        out = console.export_text()
        assert "commands:" in out and "no territory or command 'atlantis'" in out


def test_sim_command_without_terminal_plays_a_demo(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "conquista", "sim", "--players", "2", "--rules", "classic",
                           "--seed", "3", "--think", "0.1"], capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "bots play every seat" in proc.stderr and "wins: world domination" in proc.stdout


def test_sim_command_script(tmp_path: Path) -> None:
    script = tmp_path / "session.txt"
    script.write_text("wait 1\nnext\n")
    proc = subprocess.run([sys.executable, "-m", "conquista", "sim", "--script", str(script), "--seed", "2",
                           "--bots", "1,2"], capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "[line 2: next]" in proc.stdout
    missing = subprocess.run([sys.executable, "-m", "conquista", "sim", "--script", str(tmp_path / "no.txt")],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and "cannot read the script" in missing.stderr


# ------------------------------------------------------------------ issue 13 §4 and §1: playing at the terminal


def play(table: SimulatedTable, typed: list[str], width: int = 80, height: int = 24,
         speed: float = 2.0) -> tuple[str, list[float], TerminalBoard]:
    """Drive the interactive board with typed lines; returns what it printed, its pauses and the board."""
    pauses: list[float] = []
    lines = iter(typed)
    console = Console(width=width, height=height, record=True, color_system=None)

    def read(prompt: str) -> str:
        console.print("<prompt>")
        return next(lines)

    board = run_interactive(table, console, read=read, speed=speed, sleep=pauses.append)
    return console.export_text(), pauses, board


def test_bot_moves_are_shown_as_they_happen_at_a_followable_pace() -> None:
    with SimulatedTable("classic", 3, seed=8, bots=(1, 2), think_time=0.5) as table:
        out, pauses, board = play(table, ["quit"])
        before_prompt = out.split("<prompt>")[0]
        moves = [line for line in before_prompt.split("\n") if line.startswith("» ")]
        bot_colours = {table.game.rules.colours[s] for s in table.bots}
        assert moves, "the bots placed before the person could type, and each placement was shown"
        assert {m.split()[1] for m in moves if "places" in m} <= bot_colours
        # The board was redrawn while the bots played, not only once at the end...
        assert board.redraws >= 3 and before_prompt.count("conquista · classic") == board.redraws
        # ... and the pauses add up to the simulated time at 2 simulated seconds per real second.
        assert pauses and all(p == pytest.approx(0.25) for p in pauses)
        assert sum(pauses) == pytest.approx(table.clock.now() / 2, rel=0.2)


def test_log_command_shows_the_whole_log_or_its_last_lines() -> None:
    with SimulatedTable("classic", 2, seed=8, bots=(0, 1), think_time=0.2) as table:
        table.advance(20)
        table.bots = frozenset()        # the bots stop: the prompt comes back at once
        log = table.log
        assert len(log) > 20
        out, _, _ = play(table, ["log 3", "log", "log x", "quit"], speed=0)
        after = out.split("<prompt>", 1)[1]
        assert "\n".join(log[-3:]) in after.split("<prompt>")[0]
        # The whole log, not only the board's last lines (wrapped between words at the console's width).
        assert " ".join(log).split() == " ".join(after.split("<prompt>")[1].splitlines()).split()
        assert "log takes a number of lines, not 'x'" in after


@pytest.mark.parametrize("typed", ["wait inf", "wait nan", "wait 100000", "wait -5", "wait 0"])
def test_wait_is_bounded(typed: str) -> None:
    with pytest.raises(ConquistaError, match="wait takes more than 0 and at most 600 seconds"):
        parse_command(typed, NAMES)
    with SimulatedTable("classic", 2, seed=8) as table:
        out, _, _ = play(table, [typed, "quit"], speed=0)
        assert "wait takes more than 0 and at most 600 seconds" in out and table.clock.now() < 1


def test_wait_shows_the_bots_moves_meanwhile() -> None:
    with SimulatedTable("classic", 2, seed=8, bots=(0, 1), think_time=0.5) as table:
        pauses: list[float] = []
        console = Console(width=80, height=24, record=True, color_system=None)
        board = TerminalBoard(table, console, speed=2.0, sleep=pauses.append)
        assert board.handle("wait 5")
        out = console.export_text()
        assert table.clock.now() >= 5.0
        assert out.count("» ") >= 3 and sum(pauses) >= 2.5 and board.redraws >= 3


def test_did_you_mean_in_english_and_italian() -> None:
    with pytest.raises(ConquistaError, match="no territory 'sud africa': did you mean South Africa"):
        NAMES.resolve("sud africa")
    with pytest.raises(ConquistaError, match="no territory 'ukraina': did you mean Ukraine"):
        NAMES.resolve("ukraina")
    assert NAMES.resolve("SAF") == "south_africa" and NAMES.resolve("ucraina") == "ukraine"


def test_tab_completes_names_after_long() -> None:
    complete = completer(NameIndex(load_map(), COMMANDS).completions)
    assert complete("long sou", 0) == "long South Africa" and complete("long sou", 1) == "long Southern Europe"
    assert complete("long sou", 2) is None
    assert complete("Madag", 0) == "Madagascar" and complete("bli", 0) == "blitz"


def test_resume_question_is_shown_once_and_says_what_cancel_does() -> None:
    with SimulatedTable("classic", 2, seed=8) as table:
        question = "unfinished game 3: ROLL resumes it; CANCEL marks it abandoned"
        table.referee.ask(TableQuestion(QuestionKind.OTHER, question))
        out, _, _ = play(table, ["alaska", "quit"], speed=0)
        after_tap = out.split("<prompt>")[1]
        assert after_tap.count("CANCEL marks it abandoned") == 1
        assert "answer the question first: ROLL or CANCEL" in after_tap
        assert "ring: a question · green half: ROLL answers yes · red half: CANCEL answers no" in after_tap


def test_offer_resume_says_what_cancel_does_to_the_old_game() -> None:
    from conquista.journal import offer_resume
    from conquista.journal.store import GameInfo

    asked: list[str] = []

    class Asking:
        def step(self, item: object, _now: float) -> list[object]:
            asked.append(item.question.text)   # type: ignore[attr-defined]
            return []

        def view(self) -> object:
            return type("View", (), {"now": 0.0})()

    saved = GameInfo.__new__(GameInfo)
    for key, value in {"id": 7, "ruleset": "italian", "players": 3, "turn": 12}.items():
        object.__setattr__(saved, key, value)
    offer_resume(Asking(), None, saved, lambda: None)  # type: ignore[arg-type]
    assert asked and "CANCEL marks it abandoned" in asked[0] and "--resume 7" in asked[0]


class ExternalPico:
    """Stands in for a `socket://` link to a sim-mcu in another terminal: nothing to press from here."""

    pico = None

    def poll(self) -> list[object]:
        return []

    def close(self) -> None:
        pass


def test_typing_a_territory_with_external_sensors_says_where_to_tap_and_goes_on() -> None:
    with SimulatedTable("classic", 2, seed=8) as table:
        table.linked = ExternalPico()  # type: ignore[assignment]
        out, _, _ = play(table, ["alaska", "wait 1", "quit"], width=200, height=60, speed=0)
        key = table.profile.sensors.key_of_territory[table.game.map.index("alaska")]
        assert f"tap Alaska there by typing `tap {key}` in the sim-mcu terminal; the game goes on here" in out
        assert out.count("<prompt>") == 3 and table.clock.now() >= 1.0    # the game went on after the refusal


def test_on_a_terminal_bot_moves_redraw_the_board_in_place() -> None:
    """A real terminal (force_terminal): the board is a Live display updated per bot move, the moves above it."""
    with SimulatedTable("classic", 3, seed=8, bots=(1, 2), think_time=0.5) as table:
        console = Console(width=80, height=24, record=True, force_terminal=True, color_system=None)
        pauses: list[float] = []
        typed = iter(["quit"])
        board = run_interactive(table, console, read=lambda prompt: next(typed), speed=4, sleep=pauses.append)
        out = console.export_text()
        moves = [line for line in out.split("\n") if line.startswith("» ")]
        assert moves and board.redraws >= 3 and pauses
        assert out.count("conquista · classic") >= board.redraws        # every redraw reached the screen
        assert board.live is None                                      # the Live display ended before the prompt
