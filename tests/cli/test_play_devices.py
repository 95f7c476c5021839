"""`play` opens the board's devices once (issue 22, the first frame first): the check that a missing device is the
first thing said is the opening the board then runs on, not an opening closed and done again (closing gpiozero's
buttons waits for their hold threads, and the Pico's link would shake hands twice)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from conquista.app.board import BoardDevices
from conquista.cli import main
from conquista.errors import ConquistaError, WebError


class Opened:
    latest: Opened

    def __init__(self) -> None:
        self.closed = 0
        self.failure: Exception | None = None
        self.said: list[str] = []   # what happened, in order: the web app, these devices, the QR code

    def open_deferred(self) -> None:
        self.said.append("buttons")
        if self.failure is not None:
            raise self.failure

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Opened, Any]]:
    """Each opening of the devices, with the `push` it was given."""
    import conquista.app.board

    openings: list[tuple[Opened, Any]] = []

    def open_devices(profile: Any, clock: Any, sensors_url: str | None = None, on_link_event: Any = None,
                     push: Any = None, **_: Any) -> Opened:
        openings.append((Opened(), push))
        return openings[-1][0]

    monkeypatch.setattr(conquista.app.board, "open_devices", open_devices)
    return openings


def test_the_board_runs_on_the_devices_opened_first(opened: list[tuple[Opened, Any]], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import conquista.app.board
    from conquista.table.referee import Referee

    ran: list[dict[str, Any]] = []

    def run_board(game: Any, profile: Any, dice: Any, **kwargs: Any) -> Referee:
        ran.append(kwargs)
        return Referee(game, dice)

    monkeypatch.setattr(conquista.app.board, "run_board", run_board)
    assert main(["play", "--new", "--no-web", "--data-dir", str(tmp_path)]) == 0
    (devices, push), = opened
    assert ran[0]["devices"] is devices
    assert push == ran[0]["inbox"].put          # their inputs wake the board's loop
    assert devices.closed == 1                  # closed when play ends (a real run_board closes them first)


def test_devices_are_closed_when_play_fails_before_the_board_runs(opened: list[tuple[Opened, Any]], tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["play", "--new", "--data-dir", str(tmp_path), "--web", f"127.0.0.1:{port}"]) == 2
    (devices, _), = opened
    assert devices.closed == 1
    assert str(port) in capsys.readouterr().err


def test_board_devices_close_once() -> None:
    calls: list[str] = []

    def failing() -> None:
        calls.append("strip")
        raise ConquistaError("the strip is gone")

    devices = BoardDevices(sensors=None, panel=None, strip=None, buzzer=None,  # type: ignore[arg-type]
                           closers=[lambda: calls.append("panel"), failing])
    devices.close()
    devices.close()
    assert calls == ["strip", "panel"]          # in reverse order, past a failure, and only once


class FakeService:
    fails = False
    def __init__(self, companion: object, address: object, sock: object = None) -> None:
        self.opened = Opened.latest
        self.stopped = False
        self.url = "http://127.0.0.1:8080/"
        self.fails = FakeService.fails

    def start(self) -> str:
        self.opened.said.append("web")
        return self.url

    def wait_ready(self) -> None:
        if self.fails:
            raise WebError("the web app on port 8080 stopped: boom")
        self.opened.said.append("web serving")

    def stop(self) -> None:
        self.stopped = True
        self.opened.said.append("web stopped")


@pytest.fixture
def web_then_buttons(opened: list[tuple[Opened, Any]], monkeypatch: pytest.MonkeyPatch) -> list[tuple[Opened, Any]]:
    """play with a fake web app and a board loop that only shows its first frame."""
    import conquista.app.board
    import conquista.web.service
    from conquista.table.referee import Referee

    def run_board(game: Any, profile: Any, dice: Any, **kwargs: Any) -> Referee:
        Opened.latest = kwargs["devices"]
        kwargs["after_first_frame"]()
        kwargs["devices"].open_deferred()   # as the real one does: a no-op once play opened them
        return Referee(game, dice)

    monkeypatch.setattr(conquista.app.board, "run_board", run_board)
    monkeypatch.setattr(conquista.web.service, "WebService", FakeService)
    monkeypatch.setattr(FakeService, "fails", False)
    return opened


def test_the_web_app_serves_before_the_buttons_open_and_the_qr_code_comes_after(
        web_then_buttons: list[tuple[Opened, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--new", "--data-dir", str(tmp_path), "--web", "127.0.0.1:0"]) == 0
    (devices, _), = web_then_buttons
    out = capsys.readouterr().out
    assert devices.said[:3] == ["web", "web serving", "buttons"] and "join from a phone" in out


def test_a_missing_button_is_said_without_a_qr_code_and_the_web_app_stops(
        web_then_buttons: list[tuple[Opened, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from conquista.devices.errors import DeviceError

    original = Opened.__init__

    def failing(self: Opened) -> None:
        original(self)
        self.failure = DeviceError("roll button on GPIO5: no such pin")

    monkeypatch.setattr(Opened, "__init__", failing)
    assert main(["play", "--new", "--data-dir", str(tmp_path), "--web", "127.0.0.1:0"]) == 2
    (devices, _), = web_then_buttons
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "GPIO5" in err
    assert devices.said == ["web", "web serving", "buttons", "web stopped"] and devices.closed == 1


def test_a_web_app_that_cannot_start_shows_no_qr_code_and_the_buttons_still_open(
        web_then_buttons: list[tuple[Opened, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(FakeService, "fails", True)
    assert main(["play", "--new", "--data-dir", str(tmp_path), "--web", "127.0.0.1:0"]) == 0
    (devices, _), = web_then_buttons
    assert "join from a phone" not in capsys.readouterr().out
    assert devices.said[:2] == ["web", "buttons"]
