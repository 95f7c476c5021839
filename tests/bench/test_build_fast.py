"""benchmarks/build_fast.py (`make fast`): the copy of the actions it compiles against reads every field as Any,
and changes nothing else (the actions stay interpreted; only what mypyc assumes changes)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_fast", ROOT / "benchmarks" / "build_fast.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_loosened_actions_read_every_field_as_any(tmp_path: Path) -> None:
    source = ROOT / "host" / "conquista" / "rules" / "actions.py"
    copy = tmp_path / "actions.py"
    copy.write_text(source.read_text())
    _build().loosen_actions(copy)
    text = copy.read_text()
    assert "Action = Any\n" in text and "from typing import Any\n" in text
    assert not re.search(r"^    [a-z_]+: (int|bool|str|tuple)", text, flags=re.M)
    # Only annotations changed: every line but those is the source's.
    changed = [line for line in text.splitlines() if line not in source.read_text().splitlines()]
    assert all(": Any" in line or line in ("Action = Any", "from typing import Any", "") for line in changed)
    # And the copy still loads, as the compiled modules import it.
    spec = importlib.util.spec_from_file_location("loosened_actions", copy)
    assert spec is not None and spec.loader is not None
    loosened = importlib.util.module_from_spec(spec)
    sys.modules["loosened_actions"] = loosened      # dataclass reads a class's module from there
    try:
        spec.loader.exec_module(loosened)
    finally:
        del sys.modules["loosened_actions"]
    assert loosened.Place(3).count == 1


def test_the_compiled_modules_leave_the_actions_and_loaders_interpreted() -> None:
    names = _build().modules(ROOT / "host" / "conquista")
    assert "conquista/rules/engine.py" in names and "conquista/bots/simulate.py" in names
    assert "conquista/rules/actions.py" not in names and "conquista/rules/rulesets.py" not in names
    assert "conquista/rules/records.py" not in names      # builds classes at run time: no use compiled
