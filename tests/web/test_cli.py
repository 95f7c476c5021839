"""`--web` / `--no-web` on `conquista sim`: who serves, the URL and QR printed, a busy port named."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from conquista.cli import main
from conquista.web.service import WebAddress, WebError, bind, parse_web_address

pytestmark = pytest.mark.timeout(60)


def script(tmp_path: Path) -> str:
    path = tmp_path / "moves.txt"
    path.write_text("wait 0.2\n", "utf-8")
    return str(path)


def test_script_serves_only_with_web_and_ends_with_the_script(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--script", script(tmp_path), "--seed", "1"]) == 0
    assert "join from a phone" not in capsys.readouterr().out
    assert main(["sim", "--script", script(tmp_path), "--seed", "1", "--web", "127.0.0.1:0"]) == 0
    out = capsys.readouterr().out
    assert "join from a phone: http://127.0.0.1:" in out and "█" in out   # the URL and its QR code


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
