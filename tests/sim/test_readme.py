"""The README's Python example runs and does what its comments say (issue 13 §4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text("utf-8"), flags=re.S)


def test_readme_python_example_places_the_armies_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks()
    assert len(blocks) == 1, "one Python example in the README, run here"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    table = namespace["table"]
    out = capsys.readouterr().out
    # With seed 1 a bot places first; the example waited for red's turn, so its tap and turn were red's.
    log = table.log
    assert any(line.startswith(("blue places", "yellow places")) for line in log)
    assert re.search(r"red places 3 armies on ", "\n".join(log))
    assert out.strip(), "the example prints the status, a territory's colour and the dice panel"
