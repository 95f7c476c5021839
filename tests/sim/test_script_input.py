"""A damaged `sim --script FILE` (issue 13 §1): a binary file, a 5,000-digit encoder turn and a turn of 10^12
detents are each one line naming the script (and the line), exit 2; none ends in a traceback or a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.cli import main
from conquista.errors import ConquistaError
from conquista.rules.mapdata import load_map
from conquista_sim.names import NameIndex
from conquista_sim.terminal import TURN_MAX, parse_command


def _run(tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    script = tmp_path / "s.txt"
    script.write_bytes(content)
    code = main(["sim", "--script", str(script), "--seed", "3", "--bots", "yellow", "--think", "0.05"])
    return code, capsys.readouterr().err


def test_a_binary_script_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, b"\x89PNG\r\n\x1a\n\xff\xfe\x00", capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"{tmp_path / 's.txt'}: not a script of board commands: not UTF-8 text" in err


@pytest.mark.parametrize(("line", "expected"), [
    ("+" + "9" * 5000, "script line 2: +N / -N turns the encoder at most 1000 detents"),
    ("+1000000000000", "script line 2: +N / -N turns the encoder at most 1000 detents, not +1000000000000"),
    ("-1001", "at most 1000 detents"),
    ("+²", "at most 1000 detents"),
    ("log " + "9" * 5000, "script line 2: log takes a number of lines, not '99999"),
])
def test_absurd_script_lines_are_refused_quickly(tmp_path: Path, line: str, expected: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(tmp_path, f"wait 1\n{line}\n".encode(), capsys)
    assert code == 2 and err.count("\n") == 1 and expected in err and "Traceback" not in err
    assert f"{tmp_path / 's.txt'}: script line" in err


def test_turns_within_the_range_still_parse() -> None:
    names = NameIndex(load_map(), ("roll",), "help")
    assert parse_command(f"+{TURN_MAX}", names).number == TURN_MAX
    assert parse_command("-3", names).number == -3
    with pytest.raises(ConquistaError):
        parse_command(f"+{TURN_MAX + 1}", names)
