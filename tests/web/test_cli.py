"""`--web` / `--no-web` on `conquista sim`: who serves, the URL and QR printed, a busy port named."""

from __future__ import annotations

import socket
import types
from pathlib import Path
from typing import ClassVar

import pytest

from conquista.cli import main
from conquista.errors import WebError
from conquista.web.service import WebAddress, bind, parse_web_address

pytestmark = pytest.mark.timeout(60)


def script(tmp_path: Path) -> str:
    path = tmp_path / "moves.txt"
    path.write_text("wait 0.2\n", "utf-8")
    return str(path)


def test_script_serves_only_with_web(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --web a script ends with itself; with it, it serves on (tests/web/test_sim_serving.py)."""
    assert main(["sim", "--script", script(tmp_path), "--seed", "1"]) == 0
    assert "join from a phone" not in capsys.readouterr().out


def test_an_explicit_busy_port_is_a_one_line_error_naming_it(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["sim", "--script", script(tmp_path), "--web", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "busy" in err and "Traceback" not in err


def test_the_default_port_moves_on_to_the_next_free_one() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        sock = bind(WebAddress("127.0.0.1", port, explicit=False))
        try:
            assert sock.getsockname()[1] > port
        finally:
            sock.close()


@pytest.mark.parametrize("text", ["eighty", "host:", "127.0.0.1:70000", "-1"])
def test_bad_web_address_is_refused(text: str) -> None:
    with pytest.raises(WebError, match="--web"):
        parse_web_address(text, "127.0.0.1")


def test_web_address_forms() -> None:
    assert parse_web_address("9000", "0.0.0.0") == WebAddress("0.0.0.0", 9000, True)
    assert parse_web_address("127.0.0.1:9001", "0.0.0.0") == WebAddress("127.0.0.1", 9001, True)


def test_a_new_game_from_the_host_is_journalled_and_the_old_one_abandoned(tmp_path: Path) -> None:
    import random

    from conquista.cli.play_cmd import _host_set_up
    from conquista.cli.table_dice import TableDice
    from conquista.dice.chance import new_game
    from conquista.errors import ConquistaError
    from conquista.journal import GameJournal
    from conquista.rules.engine import Game
    from conquista.rules.mapdata import load_map
    from conquista.rules.rulesets import load_ruleset
    from conquista.web.companion import GameSetUp
    from tests.journal.helpers import raw_rows

    game_map = load_map()
    def play_one(journal: GameJournal, game: Game) -> None:  # a game is saved from its first action
        action = game.legal_actions()[0]
        journal.record(action, game.apply(action))

    with GameJournal(tmp_path) as journal:
        old = new_game(load_ruleset("italian"), game_map, 3, random.Random(1))
        journal.start(old)
        play_one(journal, old)
        first = journal.game_id
        set_up = _host_set_up(journal, game_map, TableDice("os", None, journal, print))
        with pytest.raises(ConquistaError, match="players"):
            set_up(GameSetUp("classic", 9))
        game = set_up(GameSetUp("classic", 4)).game
        play_one(journal, game)
        journal.flush()
        assert game.players == 4 and journal.game_id not in (None, first)
        assert first is not None and raw_rows(tmp_path, first)[2] == "abandoned"


def test_no_web_turns_the_server_off_and_cannot_be_given_with_web(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--script", script(tmp_path), "--seed", "1", "--no-web"]) == 0
    assert "join from a phone" not in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        main(["sim", "--script", script(tmp_path), "--web", "9000", "--no-web"])
    assert refused.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


class FakeService:
    """Stands in for the web app's server: records where it would listen."""

    started: ClassVar[list[FakeService]] = []

    def __init__(self, companion: object, address: WebAddress, sock: object = None) -> None:
        self.companion, self.address, self.sock = companion, address, sock
        self.url = f"http://192.168.4.1:{address.port}/"
        self.stopped = False
        FakeService.started.append(self)

    def start(self) -> str:
        return self.url

    def wait_ready(self) -> None:
        pass

    def stop(self) -> None:
        self.stopped = True


@pytest.fixture
def fake_board(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """`conquista play` without hardware: the board loop returns at once; the web app is a FakeService."""
    import conquista.app.board
    import conquista.cli.board_devices
    import conquista.web.service
    from conquista.dice.sources import SeededDice
    from conquista.table.referee import Referee

    steps: list[object] = []

    def run_board(game, profile, dice, **kwargs):  # type: ignore[no-untyped-def]
        assert all(s.stopped for s in FakeService.started)   # the web app starts only after the first frame
        kwargs["after_first_frame"]()
        steps.append(kwargs["inbox"])
        return Referee(game, SeededDice(1))

    def bind(address: WebAddress) -> socket.socket:
        bound.append(address)
        return socket.socket()

    bound: list[WebAddress] = []
    FakeService.started.clear()
    monkeypatch.setattr(conquista.web.service, "bind", bind)
    monkeypatch.setattr(conquista.app.board, "run_board", run_board)
    monkeypatch.setattr(conquista.cli.board_devices, "open_board",  # no board to open
                        lambda *_: types.SimpleNamespace(close=lambda: None, open_deferred=lambda: None))
    monkeypatch.setattr(conquista.web.service, "WebService", FakeService)
    return steps


def test_play_serves_by_default_on_every_network_and_the_first_phone_hosts(
        tmp_path: Path, fake_board: list[object], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--data-dir", str(tmp_path)]) == 0
    [service] = FakeService.started
    assert service.address == WebAddress("0.0.0.0", 8080, explicit=False) and service.stopped
    assert "join from a phone: http://192.168.4.1:8080/" in capsys.readouterr().out
    companion = service.companion
    assert fake_board == [companion.wake.__self__]          # phones wake the board's loop  # type: ignore[attr-defined]
    assert service.sock is not None                         # the port was taken before the board started
    assert companion.new_game is not None and companion.seats.first_seat_hosts   # type: ignore[attr-defined]


def test_play_set_up_on_the_command_line_has_no_host_and_no_web_serves_nothing(
        tmp_path: Path, fake_board: list[object], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--data-dir", str(tmp_path), "--rules", "classic", "--players", "4"]) == 0
    [service] = FakeService.started
    companion = service.companion
    assert companion.new_game is None and not companion.seats.first_seat_hosts   # type: ignore[attr-defined]
    capsys.readouterr()
    assert main(["play", "--data-dir", str(tmp_path), "--new", "--no-web"]) == 0
    assert len(FakeService.started) == 1
    assert "join from a phone" not in capsys.readouterr().out
