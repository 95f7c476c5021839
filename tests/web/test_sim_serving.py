"""`conquista sim --demo --web` and `--script --web`: the web app goes on serving after the game (or the script)
ends, with the winner and the luck report on its screens, until Ctrl-C (issue 29: it used to exit 1.4 s after the
win and leave the television "offline")."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(90)


def _served(argv: list[str]) -> tuple[subprocess.Popen[str], str, list[str]]:
    """Start `conquista sim ARGV --web 127.0.0.1:0` and read its output up to the line that says it serves on."""
    proc = subprocess.Popen([sys.executable, "-m", "conquista", "sim", *argv, "--web", "127.0.0.1:0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if "still serves" in line:
            url = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            assert url is not None, line
            return proc, url.group(1), seen
    proc.wait()
    raise AssertionError(f"it stopped without serving on: {''.join(seen[-5:])} {proc.stderr and proc.stderr.read()}")


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)       # Ctrl-C
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "# stopped" in out and "Traceback" not in err


def test_a_demo_keeps_serving_after_the_win_until_ctrl_c() -> None:
    proc, url, seen = _served(["--demo", "--players", "2", "--seed", "1"])
    try:
        assert any(line.startswith("***") and "wins" in line for line in seen)      # the game did end
        with urllib.request.urlopen(url + "api/public", timeout=10) as answer:
            view = json.load(answer)
        assert view["over"] and view["winner"] is not None and view["won_how"] and view["luck"]
        with urllib.request.urlopen(url + "board", timeout=10) as page:
            assert page.status == 200
    finally:
        _stop(proc)


def test_a_script_keeps_serving_after_its_last_line(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("wait 0.2\n", "utf-8")
    proc, url, seen = _served(["--script", str(script), "--seed", "1"])
    try:
        assert any("join from a phone: http://127.0.0.1:" in line for line in seen)
        assert "the script is done" in seen[-1]
        with urllib.request.urlopen(url + "api/public", timeout=10) as answer:
            assert not json.load(answer)["over"]
    finally:
        _stop(proc)
