"""The committed-dice part of the dice audit: a seed (revealed in the log or given with --verify-seed) against the
header's commitment, then every chance outcome of the log against the seed's stream: each committed roll, and,
when the log's commitment covers them, the deal and every card draw (replayed through the engine, which knows the
pile each card was drawn from). The first line that differs is named."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conquista.dice.chance import chance_action, random_deal
from conquista.dice.sources import COVERS, CommittedDice, SeedError, commitment_for, committed_dice, parse_seed
from conquista.errors import AuditError, ConquistaError
from conquista.rules.actions import Action, Deal, Draw
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.gamelog import parse_header
from conquista.rules.mapdata import GameMap
from conquista.rules.serialize import DecodeError, decode_action, encode_action

Dice = tuple[tuple[int, ...], tuple[int, ...]]
Records = Sequence[tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class Mismatch:
    """A committed roll that is not the stream's."""

    line: int
    index: int
    logged: Dice
    expected: Dice

    def describe(self, where: str) -> str:
        return (f"{where} line {self.line}: committed roll #{self.index} is attack {list(self.logged[0])} "
                f"defend {list(self.logged[1])}, but the seed gives attack {list(self.expected[0])} "
                f"defend {list(self.expected[1])}")

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "index": self.index,
                "logged": {"attack": list(self.logged[0]), "defend": list(self.logged[1])},
                "expected": {"attack": list(self.expected[0]), "defend": list(self.expected[1])}}


@dataclass(frozen=True)
class ChanceMismatch:
    """A deal or a card draw that is not the stream's. `index`: the draw's number in the stream (0 for the deal);
    `logged` and `expected` as log JSON."""

    line: int
    kind: str                 # "deal" or "draw"
    index: int
    logged: dict[str, Any]
    expected: dict[str, Any]

    def describe(self, where: str) -> str:
        if self.kind == "deal":
            return f"{where} line {self.line}: the deal is not the one the seed deals ({_deal_difference(self)})"
        return (f"{where} line {self.line}: committed card draw #{self.index} is {self.logged.get('card')}, but the "
                f"seed draws {self.expected.get('card')}")

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind, "index": self.index, "logged": self.logged,
                "expected": self.expected}


def _deal_difference(m: ChanceMismatch) -> str:
    for key, what in (("order", "territory order"), ("first_player", "first player"), ("missions", "missions")):
        if m.logged.get(key) != m.expected.get(key):
            return f"{what} {m.logged.get(key)!r}, the seed's {m.expected.get(key)!r}"
    return "it differs"


@dataclass(frozen=True)
class SeedCheck:
    seed_from: str
    rolls_checked: int
    mismatches: int
    first_mismatch: Mismatch | None
    deal_checked: bool = False
    draws_checked: int = 0
    chance_mismatches: int = 0
    first_chance_mismatch: ChanceMismatch | None = None
    not_checked: str = ""          # why the deal and the draws were not checked, if they were not

    @property
    def passed(self) -> bool:
        return self.first_mismatch is None and self.first_chance_mismatch is None

    def failures(self, where: str) -> list[str]:
        """The first wrong line of each kind, the earliest first."""
        found: list[Mismatch | ChanceMismatch] = [m for m in (self.first_mismatch, self.first_chance_mismatch)
                                                  if m is not None]
        return [m.describe(where) for m in sorted(found, key=lambda m: m.line)]

    def to_json(self) -> dict[str, Any]:
        return {"seed_from": self.seed_from, "rolls_checked": self.rolls_checked, "mismatches": self.mismatches,
                "first_mismatch": None if self.first_mismatch is None else self.first_mismatch.to_json(),
                "deal_checked": self.deal_checked, "draws_checked": self.draws_checked,
                "deal_and_draw_mismatches": self.chance_mismatches,
                "first_deal_or_draw_mismatch": None if self.first_chance_mismatch is None
                else self.first_chance_mismatch.to_json(),
                "deal_and_draws_not_checked": self.not_checked or None}


def seed_to_check(where: str, commitment: str | None, source: str | None, verify_seed: str | None,
                  revealed: tuple[int, str] | None) -> tuple[str, bytes] | None:
    """The seed to check the log with (the one given by hand wins over the revealed one), each candidate checked
    against the commitment first; None when no seed is known."""
    candidates: list[tuple[str, bytes]] = []
    try:
        if revealed is not None:
            candidates.append((f"line {revealed[0]}", parse_seed(revealed[1], f"{where} line {revealed[0]}: seed")))
        if verify_seed is not None:
            candidates.append(("--verify-seed", parse_seed(verify_seed, "--verify-seed")))
    except SeedError as exc:
        raise AuditError(str(exc)) from None
    if not candidates:
        return None
    if commitment is None:
        raise AuditError(f"{where} line 1: the dice source is {source!r}, not 'committed': there is no "
                         f"commitment to check a seed against")
    for label, seed in candidates:
        digest = commitment_for(seed)
        if digest != commitment:
            what = "the seed revealed on " + label if label.startswith("line") else "the seed given to " + label
            raise AuditError(f"{where}: {what} does not match the commitment (its SHA-256 is {digest[:16]}…, "
                             f"the header commits to {commitment[:16]}…)")
    return candidates[-1]


def check_seed(where: str, seed: tuple[str, bytes], committed: list[tuple[int, tuple[int, ...], tuple[int, ...]]],
               header: dict[str, Any], actions: Records, game_map: GameMap | None = None) -> SeedCheck:
    """Every committed roll against the stream of the seed; then the deal and the card draws, if covered."""
    label, key = seed
    first: Mismatch | None = None
    mismatches = 0
    for index, (line, attack, defend) in enumerate(committed):
        expected = committed_dice(key, index, len(attack), len(defend))
        if expected != (attack, defend):
            mismatches += 1
            if first is None:
                first = Mismatch(line, index, (attack, defend), expected)
    check = SeedCheck(label, len(committed), mismatches, first)
    dice = header.get("dice") or {}
    if dice.get("covers") != COVERS:
        return _replace(check, not_checked="this log's commitment covers the rolls only (a game committed before "
                                           "the deal and the card draws were)")
    if not any(obj.get("type") == "deal" for _, obj in actions):
        return _replace(check, not_checked="the log has no deal")
    return _check_deal_and_draws(where, key, check, header, actions, game_map)


def _replace(check: SeedCheck, **changes: Any) -> SeedCheck:
    import dataclasses

    return dataclasses.replace(check, **changes)


def _check_deal_and_draws(where: str, key: bytes, check: SeedCheck, header_obj: dict[str, Any], actions: Records,
                          game_map: GameMap | None) -> SeedCheck:
    """Replay the log through the engine; before the deal and each draw, ask the committed stream what it gives."""
    try:
        header = parse_header(header_obj, f"{where} line 1", game_map)
    except ConquistaError as exc:
        raise AuditError(str(exc)) from None
    the_map, source = header.game_map, CommittedDice(key)
    game: Game | None = None
    wrong: list[ChanceMismatch] = []
    for line, obj in actions:
        action = _decode(where, line, obj, the_map)
        if game is None:
            if not isinstance(action, Deal):
                raise AuditError(f"{where} line {line}: the first action must be the deal")
            expected: Action = random_deal(header.rules, the_map, header.players, source)
            game = Game(header.rules, the_map, header.players, action)
            index, kind = 0, "deal"
        elif isinstance(action, Draw) and game.phase is Phase.DRAW:
            index, kind = source.draws, "draw"
            expected = chance_action(game, source)
        else:
            expected = action
        if expected != action:
            wrong.append(ChanceMismatch(line, kind, index, encode_action(action, the_map),
                                        encode_action(expected, the_map)))
        if isinstance(action, Deal):
            continue
        try:
            game.apply(action)
        except ConquistaError as exc:
            if wrong or (check.first_mismatch is not None and check.first_mismatch.line < line):
                break           # replayed as far as the engine goes after a wrong line: the log already fails
            raise AuditError(f"{where} line {line}: the engine refuses this action ({exc})") from None
    return _replace(check, deal_checked=True, draws_checked=source.draws, chance_mismatches=len(wrong),
                    first_chance_mismatch=wrong[0] if wrong else None)


def _decode(where: str, line: int, obj: dict[str, Any], game_map: GameMap) -> Action:
    try:
        return decode_action(obj, game_map)
    except DecodeError as exc:
        raise AuditError(f"{where} line {line}: {exc}") from None
