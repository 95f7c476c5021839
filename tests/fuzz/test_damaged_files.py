"""Damaged files of every kind the commands read (issue 13 §1): a few hundred seeded mutations per kind — board
profile TOML, map JSON, ruleset TOML, game log JSONL, `sim --script` file, SQLite journal — each through the real
loader in-process, and a few through the CLI in a subprocess. Every case ends in success or the project's one-line
error naming the file: no traceback, no hang (each case has a time limit), and no silent acceptance of a
known-bad mutation (a value out of range, a wrong type, an unknown key)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conquista.errors import ConquistaError
from tests.fuzz.mutate import (
    BAD_NUMBERS,
    Case,
    Hang,
    byte_mutations,
    dict_paths,
    get_at,
    numeric_paths,
    set_at,
    time_limit,
    toml_text,
)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "host/conquista/data"
SEED = 13
PER_KIND = 300
LIMIT_S = 5.0        # per case: the slowest legitimate one (a script's `wait 600`) takes about 1 s
TOML = (b"[", b"]"), (b"inf", b"nan", b"-inf", b"+inf"), (b'"x"', b"true", b"[]", b"{}", b"[[1]]")
JSON = (b"[", b"]"), (b"Infinity", b"NaN", b"-Infinity"), (b'"x"', b"true", b"null", b"[]", b"{}")


def run_case(load: Callable[[Path], object], path: Path, case: Case) -> str:
    """'ok' or 'refused'; fails the test on a traceback, a hang, a message that is not one line naming the file,
    or a known-bad case accepted."""
    path.write_bytes(case.data)
    try:
        with time_limit(LIMIT_S, case.name):
            load(path)
    except Hang as exc:
        pytest.fail(f"hang: {exc}")
    except ConquistaError as exc:
        message = str(exc)
        assert "\n" not in message and str(path) in message, f"{case.name}: {message!r}"
        assert len(message) < 1000, f"{case.name}: a message of {len(message)} characters"
        return "refused"
    except Exception as exc:   # any other exception is the traceback this test exists to catch
        pytest.fail(f"{case.name}: {type(exc).__name__}: {str(exc)[:300]}")
    assert not case.must_refuse, f"{case.name}: silently accepted"
    return "ok"


def cases(base: bytes, structured: Callable[[random.Random], Case], formats: tuple[Any, ...],
          seed: int) -> Iterator[Case]:
    """PER_KIND cases: two in three random text mutations, one in three known-bad structured ones."""
    rng = random.Random(seed)
    textual = byte_mutations(rng, base, *formats)
    for n in range(PER_KIND):
        if n % 3 == 2:
            yield structured(rng)
        else:
            name, data = textual()
            yield Case(f"#{n} {name}", data, must_refuse=False)


def tally(kind: str, outcomes: Counter[str], started: float) -> None:
    print(f"{kind}: {dict(outcomes)} in {time.monotonic() - started:.1f} s")
    assert outcomes["refused"] >= PER_KIND // 3


def bad_structure(data: Any, rng: random.Random, dump: Callable[[Any], str], extra: list[Any]) -> Case:
    """A known-bad change of parsed data: a number out of every range or of a wrong type, an unknown key, or one
    of `extra` ((name, change(data)) pairs for the kind)."""
    data = json.loads(json.dumps(data))
    numbers = numeric_paths(data)
    choice = rng.randrange(3 + len(extra)) if numbers else 2
    if choice < 2:
        path = rng.choice(numbers)
        value = rng.choice(BAD_NUMBERS)
        set_at(data, path, value)
        name = f"{'.'.join(map(str, path))} = {str(value)[:20]}"
    elif choice == 2:
        path = rng.choice(dict_paths(data))
        get_at(data, path)["zz_unknown"] = 1
        name = f"unknown key under {'.'.join(map(str, path)) or 'the top'}"
    else:
        name, change = extra[choice - 3]
        change(data)
    return Case(f"known-bad: {name}", dump(data).encode("utf-8", "surrogateescape"), must_refuse=True)


# ------------------------------------------------------------------------------------- profiles, maps, rulesets

def test_board_profiles(tmp_path: Path) -> None:
    import tomllib

    from conquista.hardware.profile import load_profile

    text = (DATA / "boards/classic-42.toml").read_bytes()
    data = tomllib.loads(text.decode())
    started, outcomes = time.monotonic(), Counter[str]()
    for case in cases(text, lambda rng: bad_structure(data, rng, toml_text, []), TOML, SEED):
        outcomes[run_case(load_profile, tmp_path / "board.toml", case)] += 1
    tally("board profiles", outcomes, started)


def _map_extras() -> list[Any]:
    def sea_word(d: Any) -> None:
        d["links"][0]["sea"] = "no"

    def jolly(d: Any) -> None:
        first = d["territories"][0]["id"]
        d["territories"][0]["id"] = "jolly1"
        for continent in d["continents"]:
            continent["territories"] = ["jolly1" if t == first else t for t in continent["territories"]]
        for link in d["links"]:
            link.update({k: "jolly1" for k in ("a", "b") if link[k] == first})

    def misspelt(d: Any) -> None:
        d["links"][1]["sae"] = d["links"][1].pop("sea")

    return [("\"sea\": \"no\"", sea_word), ("a territory jolly1", jolly), ("misspelt sae", misspelt)]


def test_maps(tmp_path: Path) -> None:
    from conquista.rules.mapdata import load_map

    text = (DATA / "maps/classic-42.json").read_bytes()
    data = json.loads(text)
    extras = _map_extras()
    started, outcomes = time.monotonic(), Counter[str]()
    for case in cases(text, lambda rng: bad_structure(data, rng, json.dumps, extras), JSON, SEED + 1):
        outcomes[run_case(load_map, tmp_path / "board.json", case)] += 1
    tally("maps", outcomes, started)


def test_rulesets(tmp_path: Path) -> None:
    import tomllib

    from conquista.rules.rulesets import load_ruleset

    text = (DATA / "rulesets/italian.toml").read_bytes()
    data = tomllib.loads(text.decode())
    started, outcomes = time.monotonic(), Counter[str]()
    for case in cases(text, lambda rng: bad_structure(data, rng, toml_text, []), TOML, SEED + 2):
        outcomes[run_case(lambda p: load_ruleset(str(p)), tmp_path / "house.toml", case)] += 1
    tally("rulesets", outcomes, started)


# ------------------------------------------------------------------------------------------------ game logs

def test_game_logs(tmp_path: Path) -> None:
    from conquista.dice.audit import audit_log
    from conquista.rules.gamelog import read_log

    lines = (ROOT / "tests/golden/classic-2p.jsonl").read_text("utf-8").splitlines()[:150]
    text = ("\n".join(lines) + "\n").encode()

    def bad_line(rng: random.Random) -> Case:
        # The header's numbers (the ruleset, the players, the version) have ranges; an action's numbers are
        # checked when the line is replayed, and a value out of every range is never legal there. An unknown key
        # is fine in a log: the header keeps extra keys, an action line ignores them.
        at = rng.randrange(len(lines))
        case = bad_structure(json.loads(lines[at]), rng, json.dumps, [])
        body = [*lines[:at], case.data.decode("utf-8", "surrogateescape"), *lines[at + 1:]]
        return Case(f"line {at + 1}: {case.name}", ("\n".join(body) + "\n").encode("utf-8", "surrogateescape"),
                    must_refuse="unknown key" not in case.name)

    started, outcomes = time.monotonic(), Counter[str]()
    for n, case in enumerate(cases(text, bad_line, JSON, SEED + 3)):
        # The audit reads the same files its own way (only the header's dice rules and the rolls): text mutations.
        load = audit_log if n % 3 != 2 and n % 4 == 0 else read_log
        outcomes[run_case(load, tmp_path / "game.jsonl", case)] += 1
    tally("game logs", outcomes, started)


# ------------------------------------------------------------------------------------------------ sim scripts

SCRIPT = b"""# a turn at the simulated board
alaska
+3
long alaska
roll
next
-2
push
wait 1
cancel
blitz
kamchatka
log 5
help
"""


def test_sim_scripts(tmp_path: Path) -> None:
    from conquista.cli.sim_cmd import _script_lines
    from conquista_sim.table import SimulatedTable
    from conquista_sim.terminal import TURN_MAX, run_script

    def bad_script(rng: random.Random) -> Case:
        turn = rng.choice([str(TURN_MAX + 1), str(10 ** 12), "9" * 5000])
        bad = rng.choice([f"{rng.choice('+-')}{turn}", "log " + "9" * 5000, "wait inf", "wait -5", "wait 100000"])
        return Case(f"known-bad: {bad[:20]}", SCRIPT + bad.encode() + b"\n", must_refuse=True)

    formats = (b"", b""), (b"inf", b"nan"), (b"x", b"+", b"-")
    started, outcomes = time.monotonic(), Counter[str]()
    # One table for every case, no bots: a script only moves the game on as far as its legal gestures go.
    with SimulatedTable("italian", 3, SEED, ()) as table:
        def load(path: Path) -> None:
            try:
                run_script(table, _script_lines(str(path)), lambda _line: None)
            except ConquistaError as exc:     # what the CLI does: the script's name before the line's error
                raise ConquistaError(f"{path}: {exc}") from None

        for case in cases(SCRIPT, bad_script, formats, SEED + 4):
            outcomes[run_case(load, tmp_path / "script.txt", case)] += 1
    tally("sim scripts", outcomes, started)


# ------------------------------------------------------------------------------------------- the SQLite journal

JOURNAL_CASES = 200


def _read_back(data_dir: Path, digests: dict[int, str], create: bool) -> str:
    """List and replay every game. A game that replays without a warning naming it (or the whole journal) must
    be the game that was saved: never shorter or different in silence."""
    from conquista.journal import JOURNAL_NAME
    from conquista.journal.store import JournalStore

    store = JournalStore(data_dir / JOURNAL_NAME, create=create)
    try:
        for info in store.games():
            try:
                _header, game = store.load(info.id)
            except ConquistaError as exc:
                assert "\n" not in str(exc) and str(data_dir) in str(exc), str(exc)
                continue
            said = [w for w in store.warnings if f"game {info.id} " in w or "journal is damaged" in w
                    or "journal file is damaged" in w]
            assert said or game.digest() == digests.get(info.id), f"game {info.id} changed without a warning"
        return "warned" if store.warnings else "ok"
    finally:
        store.close()


def test_journals(tmp_path: Path) -> None:
    from tests.fuzz.journal_cases import damage, make_journal

    base = tmp_path / "base"
    digests = make_journal(base)
    rng = random.Random(SEED + 5)
    started, outcomes = time.monotonic(), Counter[str]()
    for n in range(JOURNAL_CASES):
        data_dir = tmp_path / "case"
        shutil.rmtree(data_dir, ignore_errors=True)
        shutil.copytree(base, data_dir)
        what = f"#{n} {damage(rng, data_dir)}"
        for create in (False, True):     # read (`games`, `replay`), then opened to play (repairs the file)
            try:
                with time_limit(LIMIT_S, what):
                    outcomes[_read_back(data_dir, digests, create)] += 1
            except Hang as exc:
                pytest.fail(f"hang: {exc}")
            except ConquistaError as exc:
                assert "\n" not in str(exc) and str(data_dir) in str(exc), f"{what}: {exc}"
                outcomes["refused"] += 1
            except AssertionError as exc:
                pytest.fail(f"{what}: {exc}")
            except Exception as exc:   # a traceback
                pytest.fail(f"{what} (create={create}): {type(exc).__name__}: {str(exc)[:300]}")
    print(f"journals: {dict(outcomes)} in {time.monotonic() - started:.1f} s")
    assert outcomes["warned"] + outcomes["refused"] >= JOURNAL_CASES // 2


# ------------------------------------------------------------------------------------- a few through the CLI

_NEST = b"[" * 100_000 + b"]" * 100_000


def _cli_cases(tmp_path: Path) -> list[tuple[list[str], str, bytes, int]]:
    """(arguments, the file's name, its content, the exit code): one damaged file of each kind."""
    twelve = json.loads((ROOT / "tests/golden/classic-2p.jsonl").read_text("utf-8").splitlines()[0])
    twelve["ruleset"]["attacker_dice_max"] = 12
    roll = {"type": "roll", "attack": [6] * 12, "defend": [1], "source": "seeded"}
    return [
        (["rules", "{f}"], "house.toml", b"a = " + _NEST, 2),
        (["simulate", "--rules", "classic", "--players", "2", "--games", "1", "--map", "{f}"], "board.json",
         b'{"name": "x", "territories": ' + b"9" * 5000 + b"}", 2),
        (["board", "diagram", "--board", "{f}", "--out", str(tmp_path / "w.svg")], "board.toml",
         b'name = "\xff\xfe"\n', 2),
        (["replay", "{f}"], "game.jsonl", b'{"format": "conquista-log", "version": ' + _NEST + b"}\n", 2),
        (["dice", "audit", "{f}"], "game.jsonl", (json.dumps(twelve) + "\n" + json.dumps(roll) + "\n").encode(), 2),
        (["sim", "--script", "{f}", "--seed", "1", "--bots", "yellow", "--think", "0.05"], "s.txt",
         b"\x89PNG\r\n\x1a\n\xff\x00", 2),
        (["sim", "--script", "{f}", "--seed", "1", "--bots", "yellow", "--think", "0.05"], "s.txt",
         b"+1000000000000\n", 2),
    ]


def test_through_the_cli(tmp_path: Path) -> None:
    from conquista.journal import JOURNAL_NAME
    from tests.fuzz.journal_cases import make_journal

    runs = []
    for n, (args, name, content, code) in enumerate(_cli_cases(tmp_path)):
        path = tmp_path / f"{n}-{name}"
        path.write_bytes(content)
        runs.append(([a.replace("{f}", str(path)) for a in args], code))
    data_dir = tmp_path / "journal"
    make_journal(data_dir)
    conn = sqlite3.connect(data_dir / JOURNAL_NAME)
    conn.execute("DROP TABLE games")
    conn.close()
    runs.append((["games", "--data-dir", str(data_dir)], 0))
    for args, code in runs:
        done = subprocess.run([sys.executable, "-m", "conquista", *args], capture_output=True, text=True,
                              timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
        assert done.returncode == code, (args, done.returncode, done.stderr[-500:])
        assert "Traceback" not in done.stderr, (args, done.stderr[-2000:])
        lines = done.stderr.splitlines()
        assert lines if code else True, args
        assert all(line.startswith("conquista") and len(line) < 1000 for line in lines), (args, lines)
    assert "restored from the backup" in done.stderr and "no saved games" not in done.stdout
