"""The buzzer on the simulated board: gpiozero's TonalBuzzer on MockFactory pins plays the cues; muted is silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.hardware.profile import ProfileError, parse_profile, read_profile_data
from conquista_sim import SimulatedTable


def frequencies_while(table: SimulatedTable, seconds: float, step: float = 0.02) -> list[float | None]:
    heard = []
    for _ in range(round(seconds / step)):
        table.advance(step, step)
        heard.append(table.board.buzzer_frequency)
    return heard


def enemy_of_current(table: SimulatedTable) -> str:
    game = table.game
    return game.map.id(next(t for t in range(game.map.size) if game.owner[t] != game.current))


def test_a_refused_tap_buzzes_low_twice_then_stops() -> None:
    with SimulatedTable("italian", 3, seed=2) as table:
        assert table.board.buzzer_frequency is None
        table.tap(enemy_of_current(table))
        assert table.board.buzzer_frequency is not None and table.board.buzzer_frequency < 250
        heard = frequencies_while(table, 1.0)
        assert heard[-1] is None and heard.count(None) < len(heard)


def test_a_refused_button_press_buzzes_as_a_refused_tap_does() -> None:
    with SimulatedTable("italian", 3, seed=2) as table:
        table.press("roll")  # the initial placement: nothing for ROLL to confirm
        assert table.referee.message == "nothing to confirm"
        assert table.board.buzzer_frequency is not None and table.board.buzzer_frequency < 250
        heard = frequencies_while(table, 1.0)
        assert heard[-1] is None


def test_a_press_that_acts_makes_no_refusal_buzz() -> None:
    with SimulatedTable("italian", 3, seed=2) as table:
        table.tap(table.game.map.id(table.game.owner.index(table.game.current)))  # place one army
        table.press("cancel")  # takes it back: accepted
        assert table.referee.message != "nothing to undo (a roll is never undone)"
        assert table.board.buzzer_frequency is None or table.board.buzzer_frequency >= 250


def test_bots_playing_make_turn_and_conquest_sounds() -> None:
    with SimulatedTable("classic", 2, seed=3, bots=(0, 1), think_time=0.05) as table:
        heard = set()
        while table.game.turn < 6 and not table.game.over:
            heard.update(frequencies_while(table, 0.2))
    assert 880.0 in heard                 # the turn-start tune's second note
    assert 784.0 in heard                 # the conquest arpeggio's top note


def test_a_muted_profile_is_silent(tmp_path: Path) -> None:
    data, _ = read_profile_data(None)
    reference = Path(__file__).resolve().parents[2] / "host" / "conquista" / "data" / "boards" / "classic-42.toml"
    text = reference.read_text(encoding="utf-8").replace("pin = 16\n", "pin = 16\nmuted = true\n", 1)
    muted = tmp_path / "muted.toml"
    muted.write_text(text, encoding="utf-8")
    assert "buzzer" in data
    with SimulatedTable("italian", 3, seed=2, board=str(muted)) as table:
        assert table.profile.buzzer_muted
        table.tap(enemy_of_current(table))
        assert set(frequencies_while(table, 1.0)) == {None}


def test_a_muted_switch_that_is_not_true_or_false_is_named() -> None:
    data, _ = read_profile_data(None)
    data["buzzer"] = {**data["buzzer"], "muted": "yes"}
    with pytest.raises(ProfileError, match=r"buzzer\.muted"):
        parse_profile(data, "board.toml")
