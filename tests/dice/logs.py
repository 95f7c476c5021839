"""Builders of game logs in the engine's save format (JSON Lines), for the dice audit tests.

Only the parts of the format the audit relies on: the header (format, version, ruleset, ruleset_name, dice),
roll lines, the reveal line, and a few other line types that the audit must skip.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from conquista.dice.sources import DiceSource
from conquista.rules.rulesets import load_ruleset


def header(rules: str = "italian", source: str = "seeded", commitment: str | None = None) -> dict[str, Any]:
    dice: dict[str, Any] = {"source": source}
    if commitment is not None:
        dice["commitment"] = commitment
    ruleset = load_ruleset(rules)
    return {"format": "conquista-log", "version": 1, "ruleset": ruleset.to_dict(), "ruleset_name": rules,
            "map": {"name": "classic-42"}, "players": 3, "dice": dice}


def battle_lines(source: DiceSource, rolls: int, rules: str = "italian", seed: int = 0,
                 chatter: bool = True) -> list[dict[str, Any]]:
    """`rolls` roll lines from `source` with dice counts varying as in play, and other actions between them."""
    ruleset = load_ruleset(rules)
    pick = random.Random(seed)
    lines: list[dict[str, Any]] = []
    for n in range(rolls):
        if chatter and n % 5 == 0:
            lines.append({"type": "blitz", "source": "alaska", "target": "kamchatka", "stop_at": 1})
        # Mostly full dice, as in a blitz, and now and then fewer, as at the end of a battle.
        a = ruleset.attacker_dice_max if pick.random() < 0.7 else pick.randint(1, ruleset.attacker_dice_max)
        d = ruleset.defender_dice_max if pick.random() < 0.7 else pick.randint(1, ruleset.defender_dice_max)
        attack, defend = source.roll(a, d)
        lines.append({"type": "roll", "attack": list(attack), "defend": list(defend), "source": source.name})
        if chatter and n % 7 == 3:
            lines.append({"type": "occupy", "count": 3})
    return lines


def records(lines: Iterable[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) pairs as the audit reads them from a file."""
    return list(enumerate(lines, start=1))


def write(path: Path, lines: Iterable[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    return path
