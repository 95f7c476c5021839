"""Each blitz's outcome against its exact probability: the log is replayed through the engine, which knows how
many armies stood on each side when the blitz began (a roll line alone does not say)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from conquista.errors import ConquistaError
from conquista.rules.actions import Action, Blitz
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.gamelog import parse_log_lines
from conquista.rules.odds import conquest_chance

MIN_BATTLES = 20  # below this the normal approximation says little


@dataclass(frozen=True)
class Battle:
    line: int
    attacking: int
    defending: int
    stop_at: int
    conquered: bool
    probability: float


@dataclass(frozen=True)
class BattleTest:
    """Conquests observed over every blitz against the sum of their exact probabilities."""

    battles: int
    observed: int
    expected: float
    sd: float
    z: float
    p_value: float
    tested: bool
    note: str = ""


def battles_in_log(path: str | Path) -> list[Battle]:
    """Every blitz of a game log with its starting armies, stop level, result and exact conquest chance.
    Raises ConquistaError when the log cannot be replayed."""
    battles: list[Battle] = []
    # line, target, attacker, attacking, defending, stop of the blitz being fought
    current: list[tuple[int, int, int, int, int, int]] = []

    def watch(line: int, action: Action, game: Game, applied: bool) -> None:
        if not applied:
            if isinstance(action, Blitz):
                # The attacker is the source's owner: the current player, or the neutral army in its turn.
                current[:] = [(line, action.target, game.owner[action.source], game.armies[action.source],
                               game.armies[action.target], action.stop_at)]
            return
        if current and game.phase is not Phase.ROLL and game.phase is not Phase.DEFEND:
            start, target, attacker, attacking, defending, stop = current.pop()
            chance = conquest_chance(game.rules, attacking, defending, stop)
            battles.append(Battle(start, attacking, defending, stop, game.owner[target] == attacker, chance))

    try:
        lines = Path(path).read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConquistaError(f"{path}: cannot read the log ({exc})") from None
    parse_log_lines(lines, str(path), watch=watch)
    return battles


def battle_test(battles: Iterable[Battle]) -> BattleTest:
    items = list(battles)
    observed = sum(b.conquered for b in items)
    expected = sum(b.probability for b in items)
    variance = sum(b.probability * (1 - b.probability) for b in items)
    sd = math.sqrt(variance)
    if len(items) < MIN_BATTLES or variance <= 0:
        return BattleTest(len(items), observed, expected, sd, 0.0, 1.0, False,
                          f"fewer than {MIN_BATTLES} blitzes with an uncertain outcome")
    z = (observed - expected) / sd
    return BattleTest(len(items), observed, expected, sd, z, math.erfc(abs(z) / math.sqrt(2)), True)


def battle_test_for_log(path: str | Path) -> BattleTest:
    """The battle test of a log; a log that cannot be replayed (e.g. rolls only) is reported as not tested."""
    try:
        battles = battles_in_log(path)
    except (ConquistaError, ValueError, KeyError) as exc:
        return BattleTest(0, 0, 0.0, 0.0, 0.0, 1.0, False, f"not replayable: {exc}")
    return battle_test(battles)
