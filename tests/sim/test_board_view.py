"""The terminal board's layout by size, its legend, and the words of its status and log (issue 13 §4)."""

from __future__ import annotations

import itertools
import re

import pytest
from rich.console import Console

from conquista.rules.events import Phase
from conquista.table.gestures import Button, Press, Tap
from conquista.table.wording import plural, readable
from conquista_sim import SimulatedTable
from conquista_sim.board_view import render
from conquista_sim.names import CODES
from tests.rules.helpers import MAP, position, tid


def shown(table: SimulatedTable, width: int, height: int) -> list[str]:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(render(table, width, height))
    return console.export_text().rstrip("\n").split("\n")


def test_compact_layout_fits_80_by_24() -> None:
    with SimulatedTable("italian", 3, seed=1, bots=(1, 2)) as table:
        table.play_bots_until_over(max_seconds=5)  # a few lines of log
        lines = shown(table, 80, 24)
        assert len(lines) <= 23, "the prompt needs the last line"       # nothing scrolls away
        assert max(len(line) for line in lines) <= 80
        text = "\n".join(lines)
        assert all(code in text for code in CODES.values())              # every territory, by its code
        assert "too small" not in text


def test_wide_layout_shows_full_names() -> None:
    with SimulatedTable("italian", 3, seed=1) as table:
        lines = shown(table, 140, 40)
        text = "\n".join(lines)
        assert max(len(line) for line in lines) <= 140 and len(lines) <= 39
        for name in ("Madagascar", "Afghanistan", "Scandinavia", "Kamchatka", "Indonesia", "Venezuela",
                     "Argentina", "Greenland", "Territory", "Australia"):
            assert name in text
        assert "Madagas " not in text and "Afghani " not in text      # no name cut at seven letters


def test_too_small_a_terminal_is_named() -> None:
    with SimulatedTable("italian", 3, seed=1) as table:
        text = "\n".join(shown(table, 70, 20))
        assert "this terminal is 70×20: the board needs at least 80×24" in text


def test_legend_names_your_colour_the_bots_and_the_ring() -> None:
    with SimulatedTable("italian", 3, seed=1, bots=(1, 2)) as table:
        text = "\n".join(shown(table, 80, 24))
        assert "you: red" in text and "bots: blue, yellow" in text and "ring: who acts" in text


def test_defence_status_names_the_defender_and_both_territories() -> None:
    game = position("french-1976", players=3, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 4},
                    automatic_defence=False)
    with SimulatedTable(game=game) as table:
        ref = table.referee
        ref.handle(Tap(tid("alaska")), 1.0)
        ref.handle(Tap(tid("kamchatka")), 1.1)
        ref.handle(Press(Button.ROLL), 1.2)
        assert ref.game.phase is Phase.DEFEND
        pending = ref.status().pending
        assert pending.startswith("blue defends Kamchatka against Alaska: 2 dice")
        text = "\n".join(shown(table, 80, 24))
        assert "blue defends Kamchatka against Alaska" in text


def test_plural_and_readable() -> None:
    assert plural(1, "army") == "1 army" and plural(2, "army") == "2 armies"
    assert plural(1, "die") == "1 die" and plural(3, "die") == "3 dice" and plural(1, "card") == "1 card"
    colours = ("red", "blue")
    assert readable("place -92 on north_africa is illegal (player 2)", MAP, colours) == \
        "place -92 on North Africa is illegal (blue)"
    assert readable("you have 1 armies to place; 11 armies; 2.1 dice; 1 cards", MAP, colours) == \
        "you have 1 army to place; 11 armies; 2.1 dice; 1 card"
    assert readable("1 armies are still to place", MAP, colours) == "1 army is still to place"


BAD_WORDING = [
    (re.compile(r"\b1 (armies|dice|cards)\b"), "a plural after 1"),
    (re.compile(r"\b([02-9]|\d\d+) (army|die|card)\b"), "a singular after a count other than 1"),
    (re.compile(r"[a-z]+_[a-z_]+"), "an internal id"),
    (re.compile(r"\(\(|\)\)|\) \(|\([^()]*\([^()]*\)[^()]*\)"), "doubled or nested parentheses"),
]


@pytest.mark.parametrize(("rules", "players", "seed"), [("italian", 3, 4), ("classic", 2, 3)])
def test_a_whole_game_reads_well(rules: str, players: int, seed: int) -> None:
    """Every log line and every status of a whole bot game at the table, checked for the reported faults."""
    statuses: set[str] = set()
    with SimulatedTable(rules, players, seed, bots=range(players), think_time=0.05) as table:
        while not table.game.over and table.clock.now() < 20_000:
            table.advance(0.05)
            status = table.status()
            statuses.add(status.pending)
            statuses.add(status.message)
        log = table.log
    assert table.game.over
    for line in [*log, *statuses]:
        for pattern, fault in BAD_WORDING:
            assert not pattern.search(line), f"{fault} in {line!r}"
    # Placements on one territory read as one line, however many taps or encoder steps made them.
    for before, after in itertools.pairwise(log):
        if " places " in before and " places " in after:
            assert before.split(" on ", 1)[1] != after.split(" on ", 1)[1] or before.split()[0] != after.split()[0]


def test_encoder_steps_make_one_log_line() -> None:
    game = position("classic", owners={"alaska": 0}, phase=Phase.REINFORCE, state={"pool": 5})
    with SimulatedTable(game=game) as table:
        table.tap("alaska")
        for _ in range(4):
            table.turn(1)          # four separate encoder events
        places = [line for line in table.log if "places" in line]
        assert places == ["red places 5 armies on Alaska"]
        table.press("cancel")
        assert table.log[-1] == "undo: place 1 on Alaska"


def test_lamorisse_labels_never_run_into_their_neighbours() -> None:
    """Issue 39 §12: "BritainR1+2fEurope" - a cell with fleets ran into its name and into the next cell."""
    size = MAP.size
    gb = MAP.index("great_britain")
    # Every territory red's, with 3 armies and 2 fleets (12+3f on one).
    game = position("lamorisse-1954", 3, default_owner=0, phase=Phase.REINFORCE,
                    state={"armies": [15 if t == gb else 5 for t in range(size)],
                           "fleets": [3 if t == gb else 2 for t in range(size)]})
    with SimulatedTable("lamorisse-1954", 3, seed=1, game=game) as table:
        text = "\n".join(shown(table, 134, 36))
    assert "R3+2f" in text and "R12+3f" in text
    assert not re.search(r"[a-z.]R\d", text), "a name runs into the units after it"
    assert not re.search(r"\df[A-Za-z]", text), "the units run into the next cell's name"
    assert "Brit R12+3f " in text and "Europ R3+2f " in text   # a name's end gives way, never the space


def test_a_compact_board_with_fleets_never_cuts_a_territorys_code() -> None:
    """At 80×24 a compact cell is 7 columns: "EAU Y1+1f" cut the code to a letter ("EY1+1f"); the territories then
    go by continent, each code and its units whole."""
    size = MAP.size
    game = position("lamorisse-1954", 3, default_owner=0, phase=Phase.REINFORCE,
                    state={"armies": [3] * size, "fleets": [1] * size})
    with SimulatedTable("lamorisse-1954", 3, seed=1, game=game) as table:
        text = "\n".join(shown(table, 80, 24))
    for code in CODES.values():
        assert f" {code} R2+1f " in text, code


def test_a_narrow_terminal_names_each_territorys_owner_by_letter() -> None:
    """Issue 39 §12: the continent lines of a terminal narrower than the grid dropped the owner's letter."""
    with SimulatedTable("italian", 3, seed=1) as table:
        text = "\n".join(shown(table, 60, 40))
        owner = table.game.owner[table.game.map.index("alaska")]
        letter = table.game.rules.colours[owner][0].upper()
    assert re.search(rf" ALA {letter}\d+ ", text), text
