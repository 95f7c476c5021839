"""The board's commands with no board (issue 21 §3): `play` with no Pico says so before any QR code or address;
`firmware deploy` with no Pico says what it needs (not "run `conquista firmware deploy`"); `games show` words a
mission as `replay` does."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import conquista.cli.firmware_cmd
import conquista.link.ports
from conquista.cli import main
from conquista.cli.games_cmd import _print_secrets
from conquista.rules.actions import Deal
from conquista.rules.engine import Game
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import MAP


@pytest.fixture
def no_pico(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(conquista.link.ports, "find_picos", lambda: [])
    monkeypatch.setattr(conquista.cli.firmware_cmd, "find_picos", lambda: [])
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def strip_library(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The LED library of a Pi (the stand-in of tests/devices/fakes): the strip opens, as it does on the board."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "devices" / "fakes"))
    sys.modules.pop("rpi_ws281x", None)
    yield
    sys.modules.pop("rpi_ws281x", None)


@pytest.mark.usefixtures("no_pico", "strip_library")
def test_play_without_a_pico_says_so_before_the_qr_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The Pi drives this strip, so the first frame shows before the Pico's link opens (issue 22); the missing
    # Pico is still the one line said, and no QR code or address follows.
    code = main(["play", "--data-dir", str(tmp_path / "data"), "--new", "--web", "127.0.0.1:0"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""                                  # no QR code, no address of a board that is not there
    assert err.count("\n") == 1 and "no Raspberry Pi Pico" in err, err


@pytest.mark.usefixtures("no_pico")
def test_firmware_deploy_without_a_pico_says_what_it_needs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["firmware", "deploy"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "firmware deploy" not in err                # not sent back to the command that failed
    assert "MicroPython" in err and "BOOTSEL" in err and "--port" in err


def test_games_show_words_a_mission_as_replay_does(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(load_ruleset("italian"), MAP, 3, Deal(tuple(range(42)), 0, (9, 1, 2)))
    _print_secrets(game, 0)
    out = capsys.readouterr().out
    assert "Destroy every red army" not in out
    assert "mission: Conquer 24 territories (instead of destroying red: that is its own colour)" in out
