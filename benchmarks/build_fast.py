"""`make fast`: the optional compiled core (issue 22 §5). Never required: everything runs without it.

The rules, the bots and the simulate loop (with the seeded dice's ready rolls) are compiled with mypyc (it
comes with mypy, a dev dependency; it needs a C compiler) into build/fast: a copy of the package with the compiled
modules beside their sources. Nothing is built into the source tree, so the editable install that `make test` uses
keeps running the pure sources. A process runs the compiled core when build/fast is first on PYTHONPATH:

    PYTHONPATH=build/fast conquista simulate --rules classic --bots greedy

(an extension module wins over a .py file of the same name in the same directory). `make test-fast` runs the rules
and bots tests that way; benchmarks/bench_pyrisk.py adds the compiled figure when the build is there.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "host" / "conquista"
DEST = ROOT / "build" / "fast"
# Left interpreted: the actions (input from outside, see `loosen_actions`), and what is not on a game's path: the
# odds (generic over exact and float arithmetic, which mypyc reads more strictly than mypy) and the loaders of
# rulesets (and the record, whose field types the loader reads as text), maps, texts and logs (run once; mypyc
# fails on their Any).
LEFT_INTERPRETED = {"__init__.py", "actions.py", "records.py", "odds.py", "fleet_odds.py", "rulesets.py", "ruleset.py",
                    "mapdata.py", "textdata.py", "gamelog.py", "serialize.py"}
COMPILED_DIRS = ("rules", "bots")
# The seeded dice's ready rolls (the chance step of the simulate loop). The dice sources themselves stay interpreted:
# their `name` is read from the class (CommittedDice.name), which a compiled class does not allow.
COMPILED_FILES: tuple[str, ...] = ("dice/ready_rolls.py",)


def modules(package: Path) -> list[str]:
    """The compiled modules' paths, relative to the package's parent."""
    found = [p for d in COMPILED_DIRS for p in sorted((package / d).glob("*.py")) if p.name not in LEFT_INTERPRETED]
    found += [package / f for f in COMPILED_FILES]
    return [str(p.relative_to(package.parent)) for p in found]


def loosen_actions(path: Path) -> None:
    """Make the copy of rules/actions.py declare every action field, and `Action` itself, as Any.

    Actions are input (a tap, a phone, a saved log): the engine checks each field itself and refuses a wrong one by
    name (a bool is not a territory, 1.0 is not a card). Compiled code converts a value to the type it is declared
    as on every read, so declared as int, True would become 1 before the engine looked, and anything but an action
    would be a TypeError at `apply()`. Read as Any, the compiled steps see what the pure ones see. The actions stay
    interpreted dataclasses, so this changes only what mypyc assumes, not what runs."""
    text = path.read_text()
    text, fields = re.subn(r"^(    [a-z_]+): [^=\n#]+?(\s*(=.*)?)$", r"\1: Any\2", text, flags=re.M)
    text, unions = re.subn(r"^Action = (\([^)]*\)|.*)$", "Action = Any", text, flags=re.M)   # one line or a (…) union
    if not fields or unions != 1:
        raise SystemExit(f"{path}: the action fields or the Action union were not found; update loosen_actions")
    future = "from __future__ import annotations\n"
    if future not in text:
        raise SystemExit(f"{path}: no `{future.strip()}` to put `from typing import Any` after; update loosen_actions")
    path.write_text(text.replace(future, future + "\nfrom typing import Any\n", 1))


def build(dest: Path = DEST) -> Path:
    """A fresh copy of the package in `dest`, its core compiled in place; returns `dest`."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(SOURCE, dest / "conquista", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    loosen_actions(dest / "conquista" / "rules" / "actions.py")
    mypyc = Path(sys.executable).with_name("mypyc")
    if not mypyc.exists():
        raise SystemExit(f"mypyc not found next to {sys.executable}: install the dev dependencies (make install)")
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        raise SystemExit("no C compiler found: install one (Debian: sudo apt-get install gcc python3-dev)")
    env = {**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")}
    env.pop("PYTHONPATH", None)
    started = time.monotonic()
    subprocess.run([str(mypyc), *modules(dest / "conquista")], cwd=dest, env=env, check=True)
    shutil.rmtree(dest / "build", ignore_errors=True)  # mypyc's C sources and objects: the .so files are kept
    print(f"compiled core built in {dest} in {time.monotonic() - started:.0f} s; "
          f"run it with PYTHONPATH={dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest}")
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dest", type=Path, default=DEST, help=f"where to build (default {DEST})")
    args = parser.parse_args(argv)
    build(args.dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
