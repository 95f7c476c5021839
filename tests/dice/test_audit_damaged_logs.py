"""A game log that cannot be read whole is damaged: `conquista dice audit` names its first bad line (file:line and
what is wrong) and never says PASS (issue 30 item 12). A real log, of a whole bot game, damaged many ways."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from conquista.cli import main

Damage = Callable[[list[str], random.Random], list[str]]


@pytest.fixture(scope="module")
def real_log(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    where = tmp_path_factory.mktemp("logs")
    assert main(["simulate", "--games", "1", "--seed", "3", "--save-logs", str(where)]) == 0
    (log,) = where.glob("*.jsonl")
    return log.read_text(encoding="utf-8").splitlines(keepends=True)


def _actions(lines: list[str], kind: str) -> list[int]:
    return [i for i, line in enumerate(lines) if i and json.loads(line).get("type") == kind]


def truncate_mid_line(lines: list[str], pick: random.Random) -> list[str]:
    i = pick.randrange(1, len(lines))
    return [*lines[:i], lines[i][: len(lines[i]) // 2]]


def drop_a_line(lines: list[str], pick: random.Random) -> list[str]:
    i = pick.choice(_actions(lines, "place") + _actions(lines, "fortify") + _actions(lines, "end_phase"))
    return lines[:i] + lines[i + 1:]


def flip_a_byte_of_a_territory(lines: list[str], pick: random.Random) -> list[str]:
    i = pick.choice(_actions(lines, "place") + _actions(lines, "fortify"))
    obj = json.loads(lines[i])
    key = "territory" if "territory" in obj else "source"
    name = obj[key]
    at = pick.randrange(len(name))
    obj[key] = name[:at] + chr(ord(name[at]) ^ 0x04) + name[at + 1:]
    return [*lines[:i], json.dumps(obj) + "\n", *lines[i + 1:]]


def flip_a_byte_into_bad_json(lines: list[str], pick: random.Random) -> list[str]:
    i = pick.randrange(2, len(lines))
    line = lines[i]
    at = line.index("{")
    return [*lines[:i], line[:at] + "\x7f" + line[at + 1:], *lines[i + 1:]]


def bad_json(lines: list[str], pick: random.Random) -> list[str]:
    i = pick.randrange(2, len(lines))
    return [*lines[:i], '{"type": "place", "territory": \n', *lines[i + 1:]]


def wrong_type(lines: list[str], pick: random.Random) -> list[str]:
    i = pick.choice(_actions(lines, "place") + _actions(lines, "fortify") + _actions(lines, "occupy"))
    obj = json.loads(lines[i])
    obj["count"] = str(obj["count"])
    return [*lines[:i], json.dumps(obj) + "\n", *lines[i + 1:]]


def swap_two_actions(lines: list[str], pick: random.Random) -> list[str]:
    i = pick.choice(_actions(lines, "end_phase"))
    out = list(lines)
    out[i], out[i + 1] = out[i + 1], out[i]
    return out


DAMAGES: list[Damage] = [truncate_mid_line, drop_a_line, flip_a_byte_of_a_territory, flip_a_byte_into_bad_json,
                         bad_json, wrong_type, swap_two_actions]


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda d: d.__name__)
def test_no_damaged_log_passes(damage: Damage, real_log: list[str], tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(real_log), encoding="utf-8")
    assert main(["dice", "audit", str(path)]) == 0      # the log as written passes
    capsys.readouterr()
    for seed in range(6):
        damaged = damage(real_log, random.Random(seed))
        if damaged == real_log:
            continue
        path.write_text("".join(damaged), encoding="utf-8")
        code = main(["dice", "audit", str(path)])
        out, err = capsys.readouterr()
        assert code != 0 and "PASS" not in out, (damage.__name__, seed, out[-500:])
        assert err.count("\n") == 1 and f"{path}" in err and "line " in err, err
