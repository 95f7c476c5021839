"""A port that opens but never answers: calibrate and check say so in one line, exit 2, and write nothing."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from conquista.cli import main


@pytest.fixture
def silent_port() -> Iterator[str]:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield f"socket://127.0.0.1:{listener.getsockname()[1]}"


@pytest.mark.parametrize("command", [["board", "calibrate", "--board", "{out}"], ["board", "check"]])
def test_a_port_that_does_not_answer_is_one_line(tmp_path: Path, silent_port: str,
                                                 capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    out = tmp_path / "board.toml"
    args = [word.format(out=out) for word in command]
    assert main([*args, "--sensors", silent_port]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and silent_port in err and "firmware" in err
    assert list(tmp_path.iterdir()) == []
