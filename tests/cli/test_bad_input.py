"""Every subcommand given wrong input: one line on stderr naming the input, exit code 2, nothing on stdout.

The table is the survey of issue 13 §1/§8 (negative counts, zero games, bad ports, missing files, directories where
files are expected, files where directories are expected, huge numbers). Each row runs `conquista.cli.main`
in-process; `{file}`, `{dir}`, `{missing}` and `{binary}` are replaced by paths in the test's own temporary directory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conquista.cli import main

HUGE = str(10**30)

# (arguments, a fragment the one error line must contain)
CASES: list[tuple[str, str]] = [
    # rules
    ("rules {dir}", "{dir} is a directory"),
    ("rules {file}", "{file}: a ruleset file must end in .toml"),
    ("simulate --rules {dir}", "{dir} is a directory"),
    ("rules {missing}.toml", "No such file"),
    ("rules nosuch", "known rulesets: classic"),
    # simulate
    ("simulate --players -1", "not -1"),
    ("simulate --players " + HUGE, "2..6"),
    ("simulate --games 0", "--games must be at least 1"),
    ("simulate --games -5", "not -5"),
    ("simulate --games " + HUGE, "at most 1,000,000"),
    ("simulate --turn-cap -1", "--turn-cap must be 0"),
    ("simulate --turn-cap " + HUGE, "--turn-cap"),
    ("simulate --bots ''", "--bots '' names no bot"),
    ("simulate --bots clever", "unknown bot 'clever'"),
    ("simulate --games 1 --save-logs {file}", "{file}: this is a file, not a directory"),
    ("simulate --games 1 --save-logs {file}/sub", "{file}/sub: cannot create the directory"),
    ("simulate --map {dir}", "{dir}"),
    ("simulate --map {missing}", "{missing}"),
    # replay, games
    ("replay {missing}", "{missing}"),
    ("replay {dir}", "{dir}"),
    ("replay {binary}", "not UTF-8"),
    ("games --data-dir {file}", "argument --data-dir: {file} is a file, not a directory"),
    ("games show 1 --data-dir {file}", "{file} is a file, not a directory"),
    ("games show -1 --data-dir {dir}", "{dir}"),
    ("replay 3 --data-dir {file}", "{file} is a file, not a directory"),
    # sim
    ("sim --script {missing}", "{missing}"),
    ("sim --script {dir}", "{dir}"),
    ("sim --players 0 --script {file}", "not 0"),
    ("sim --bots 5 --script {file}", "--bots: '5' is not a seat"),
    ("sim --bots x --script {file}", "--bots"),
    ("sim --think -1 --demo", "--think takes 0.01 to 60"),
    ("sim --think inf --demo", "not inf"),
    ("sim --think nan --demo", "not nan"),
    ("sim --speed -1 --demo", "--speed takes 0 (no pause) to 1000"),
    ("sim --speed inf --demo", "not inf"),
    ("sim --board {dir} --script {file}", "{dir}"),
    ("sim --board {missing} --script {file}", "{missing}"),
    ("sim --data-dir {file} --script {file}", "{file} is a file, not a directory"),
    ("sim --sensors socket://127.0.0.1:99999 --script {file}", "99999"),
    # play (no Pico on a test machine: the checks that come before the hardware)
    ("play --players 0", "not 0"),
    ("play --board {dir}", "{dir}"),
    ("play --data-dir {file}", "{file} is a file, not a directory"),
    ("play --seed 5", "--seed is the seed of --dice seeded"),
    ("play --seed 5 --dice committed", "with --dice committed it would do nothing"),
    # odds
    ("odds -1 3", "not -1"),
    ("odds 3 -1", "not -1"),
    ("odds 0 0", "not 0"),
    (f"odds {HUGE} 3", "ATTACKING"),
    (f"odds 3 {HUGE}", "DEFENDING"),
    ("odds 10 6 --stop-at 0", "--stop-at"),
    ("odds 10 6 --stop-at 11", "--stop-at 11"),
    ("odds 1001 3", "at most 1000"),
    ("odds 301 3 --exact", "at most 300 with --exact"),
    ("odds --table 0", "--table"),
    ("odds --table 201", "at most 200"),
    ("odds --table 101 --exact", "at most 100 with --exact"),
    ("odds --table 5 --stop-at 6", "--stop-at 6"),
    ("odds --table " + HUGE, "--table"),
    ("odds --table 3 --plot {dir}", "--plot {dir} is a directory"),
    ("odds --table 3 --plot {missing}/x.png", "{missing}/x.png"),
    ("odds --table 3 --plot {file}/x.png", "{file}/x.png"),
    ("odds 10 6 --plot x.png", "--plot"),
    # dice
    ("dice audit {missing}", "{missing}"),
    ("dice audit {dir}", "{dir}"),
    ("dice audit {binary}", "not UTF-8"),
    ("dice audit {file}", "{file}"),
    # sim-mcu (checked before any socket is opened)
    ("sim-mcu --debounce -1", "--debounce -1"),
    ("sim-mcu --debounce 0", "--debounce 0"),
    ("sim-mcu --debounce 300", "--debounce 300"),
    ("sim-mcu --rows 0", "0 x 7"),
    ("sim-mcu --rows " + HUGE, "rows and cols"),
    ("sim-mcu --listen x", "--listen 'x'"),
    ("sim-mcu --listen 127.0.0.1:99999", "99999"),
    ("sim-mcu --listen 127.0.0.1:-1", "-1"),
    # link, firmware (checked before any port is opened)
    ("link monitor --duration -1 {missing}", "argument --duration: give a number from 0.01 to 1e+07, not -1"),
    ("link monitor --duration inf {missing}", "not inf"),
    ("link monitor --duration nan {missing}", "not nan"),
    ("link monitor --counters-every 0 {missing}", "argument --counters-every"),
    ("link monitor {missing}", "cannot open {missing}"),
    ("firmware deploy --port {missing}", "--port {missing}: no such serial port"),
    # argparse's own refusals keep the same shape
    ("nosuchcommand", "invalid choice"),
    ("simulate --games many", "invalid int value"),
]


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[c for c, _ in CASES])
def test_wrong_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch, command: str, expected: str) -> None:
    names = {"file": tmp_path / "a-file", "dir": tmp_path / "a-dir", "missing": tmp_path / "missing",
             "binary": tmp_path / "binary"}
    names["file"].write_text("")
    names["dir"].mkdir()
    names["binary"].write_bytes(bytes(range(128, 256)) * 4)
    fill = {key: str(path) for key, path in names.items()}
    # No journal of the person running the tests is read or written, whatever the row.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    argv = [word.format(**fill) for word in _split(command)]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors exit from inside parse_args
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    assert expected.format(**fill) in err, err
    assert out == ""


def _split(command: str) -> list[str]:
    import shlex

    return shlex.split(command)
