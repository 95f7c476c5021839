"""Chance sources. The engine never rolls, shuffles or draws: the caller asks the game's source for the dice of one
battle roll (`roll`), the card drawn from a pile (`draw`) and the deal a game starts from (`deal`).

* `OsDice` ("os"): the operating system's cryptographic generator; the default for live play.
* `SeededDice` ("seeded"): `random.Random(seed)`, for simulations and tests.
* `CommittedDice` ("committed"): provably fair. A fresh secret 32-byte seed is drawn at game start and only its
  SHA-256 (the commitment) is shown. Roll number n (0-based, over the game's committed rolls in log order) takes
  its dice from the bytes HMAC-SHA256(key=seed, message="conquista-dice-v1:{n}:{block}") for block = 0, 1, ...
  concatenated, reading each byte b < 252 as the die b % 6 + 1 and skipping b >= 252 (rejection sampling keeps
  the faces exactly uniform); the first dice are the attacker's, the rest the defender's. At the end the seed is
  revealed and anyone can re-derive every roll of the log. docs/dice.md has the recipe in full. The same seed also
  fixes the deal (`conquista-deal-v1:{step}`) and the card draws (`conquista-draw-v1:{n}`), see `committed_below`.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from enum import StrEnum
from typing import Any, Protocol

from conquista.dice.ready_rolls import seeded_roll
from conquista.errors import ConquistaError
from conquista.errors import SeedError as SeedError
from conquista.rules.actions import Deal, Roll


class DiceKind(StrEnum):
    """The sources a game may be dealt and rolled from (`--dice`), by the name its log records."""

    OS = "os"
    SEEDED = "seeded"
    COMMITTED = "committed"


class DiceSource(Protocol):
    """The game's chance source: dice, card draws and the deal. `name` is recorded with every roll in the log."""

    name: str

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """`attack` red dice and `defend` blue dice, each 1..6, in the order rolled."""
        ...

    def draw(self, cards: int) -> int:
        """Which of `cards` cards (0-based position in the pile) comes up."""
        ...

    def deal(self, territories: int, players: int, missions: tuple[int, ...]) -> Deal:
        """Territory order, first player and, if `missions` is not empty, one different mission per seat."""
        ...


def _deal_from(below: Callable[[int], int], territories: int, players: int, missions: tuple[int, ...]) -> Deal:
    """A deal where every random choice is `below(n)`, uniform over 0..n-1: Fisher-Yates shuffles."""
    order = list(range(territories))
    for i in range(territories - 1, 0, -1):
        j = below(i + 1)
        order[i], order[j] = order[j], order[i]
    first = below(players)
    pool = list(missions)
    chosen = []
    if pool:
        for _ in range(players):
            chosen.append(pool.pop(below(len(pool))))
    return Deal(tuple(order), first, tuple(chosen))


class SeededDice:
    """Reproducible dice for simulations and tests: the same seed gives the same rolls."""

    name = DiceKind.SEEDED.value

    def __init__(self, seed: int | str | None = 0, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)
        self._random = self.rng.random

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        r = self._random
        # int(r() * 6) is uniform over 0..5 for a 53-bit float and several times faster than randint.
        a = tuple([int(r() * 6) + 1 for _ in range(attack)])
        d = tuple([int(r() * 6) + 1 for _ in range(defend)])
        return a, d

    def roll_action(self, attack: int, defend: int) -> Roll:
        """The chance action of one battle roll: `Roll(*self.roll(attack, defend), "seeded")`, the same dice from
        the same draws, but a Roll already made when this roll came up before in the process (dice/ready_rolls.py)."""
        ready = seeded_roll(self._random, attack, defend)
        return ready if ready is not None else Roll(*self.roll(attack, defend), self.name)

    def draw(self, cards: int) -> int:
        return int(self._random() * cards)

    def deal(self, territories: int, players: int, missions: tuple[int, ...]) -> Deal:
        # The generator's own shuffle and sample: the seeds of the golden games and tests keep their games.
        rng = self.rng
        order = list(range(territories))
        rng.shuffle(order)
        first = rng.randrange(players)
        chosen = tuple(rng.sample(list(missions), players)) if missions else ()
        return Deal(tuple(order), first, chosen)


# The bytes of both generators below become dice the same way: a byte below 252 (= 42 * 6) gives the face
# byte % 6 + 1, a byte of 252 or more is skipped. 256 is not a multiple of 6, so a plain byte % 6 would favour
# faces 1..4; skipping the top 4 byte values leaves every face exactly 42 byte values.
_ACCEPT_BELOW = 252
# The operating system's generator for the deal and the card draws (what `secrets.randbelow` uses: `secrets`
# itself is not imported, as it loads hmac and OpenSSL, which a board's start has no use for before its first frame).
_SYSTEM = random.SystemRandom()


def _hmac() -> Any:
    """The hmac module, loaded with the first committed roll or draw (it loads OpenSSL)."""
    import hmac

    return hmac


class OsDice:
    """The default for live play: dice from the operating system's cryptographic generator (`os.urandom`).

    Nobody, the host included, can predict or replay these rolls; the log records them as they fell.
    """

    name = DiceKind.OS.value

    def __init__(self, buffer_size: int = 512) -> None:
        # One urandom call per roll would be a system call per battle; a small buffer serves many rolls.
        self._buffer_size = buffer_size
        self._bytes = b""
        self._pos = 0

    def _die(self) -> int:
        while True:
            if self._pos >= len(self._bytes):
                self._bytes = os.urandom(self._buffer_size)
                self._pos = 0
            value = self._bytes[self._pos]
            self._pos += 1
            if value < _ACCEPT_BELOW:
                return value % 6 + 1

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        die = self._die
        return tuple([die() for _ in range(attack)]), tuple([die() for _ in range(defend)])

    def draw(self, cards: int) -> int:
        return _SYSTEM.randrange(cards)

    def deal(self, territories: int, players: int, missions: tuple[int, ...]) -> Deal:
        return _deal_from(_SYSTEM.randrange, territories, players, missions)


COMMITTED_SEED_BYTES = 32
COMMITTED_SCHEME = "conquista-dice-v1"
# What the commitment of a log fixes, as its header's dice object says: logs of games committed before the deal and
# the card draws were (no "covers") are audited on their rolls only.
COVERS = "deal draws rolls"


def commitment_for(seed: bytes) -> str:
    """The SHA-256 of the seed bytes, hex: what is shown (and logged) before the first roll."""
    import hashlib  # here and below: OpenSSL loads with the first committed game, not with every start

    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: str, what: str = "seed") -> bytes:
    """A hex seed as typed or logged, as bytes; a one-line SeedError naming `what` if it is not hex."""
    cleaned = text.strip().lower()
    try:
        seed = bytes.fromhex(cleaned)
    except ValueError:
        raise SeedError(f"{what} {text!r} is not a hexadecimal string") from None
    if not seed:
        raise SeedError(f"{what} is empty")
    return seed


def committed_dice(seed: bytes, index: int, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Roll number `index` (0-based, counting the committed rolls of the game) of the stream of `seed`.

    Bytes: HMAC-SHA256(key=seed, message=f"conquista-dice-v1:{index}:{block}") for block 0, 1, 2, ...,
    concatenated; each byte below 252 gives the die byte % 6 + 1, others are skipped. The first `attack` dice
    are the attacker's, the next `defend` the defender's. (One block of 32 bytes almost always suffices.)
    """
    dice: list[int] = []
    wanted = attack + defend
    block = 0
    while len(dice) < wanted:
        message = f"{COMMITTED_SCHEME}:{index}:{block}".encode("ascii")
        for value in _hmac().digest(seed, message, "sha256"):
            if value < _ACCEPT_BELOW:
                dice.append(value % 6 + 1)
                if len(dice) == wanted:
                    break
        block += 1
    return tuple(dice[:attack]), tuple(dice[attack:])


def committed_below(seed: bytes, label: str, index: int, n: int) -> int:
    """Uniform over 0..n-1 from the committed stream: HMAC-SHA256(key=seed, message=f"conquista-{label}-v1:{index}:
    {block}") read as big-endian 32-bit words, skipping words at or above the largest multiple of n (rejection
    sampling keeps every value exactly as likely). `label` is "draw" (index: the game's n-th card draw) or "deal"
    (index: the step of the deal's shuffle, first player and missions, in that order)."""
    if n < 1:
        raise SeedError(f"nothing to choose from ({n} options)")
    limit = (1 << 32) - (1 << 32) % n
    block = 0
    while True:
        digest = _hmac().digest(seed, f"conquista-{label}-v1:{index}:{block}".encode("ascii"), "sha256")
        for at in range(0, 32, 4):
            word = int.from_bytes(digest[at:at + 4], "big")
            if word < limit:
                return word % n
        block += 1


def committed_deal(seed: bytes, territories: int, players: int, missions: tuple[int, ...]) -> Deal:
    """The deal a committed seed fixes (what `dice audit --verify-seed` re-derives)."""
    steps = iter(range(1 << 30))
    return _deal_from(lambda n: committed_below(seed, "deal", next(steps), n), territories, players, missions)


class CommittedDice:
    """Provably fair dice: a secret seed committed to at the start, revealed at the end.

    At game start a fresh 32-byte seed is drawn from the OS generator and only `commitment` (its SHA-256) is shown
    and written in the log header. Every roll is `committed_dice(seed, n, attack, defend)` for the game's n-th
    committed roll, so it was fixed before the game began and the host cannot steer it. At the end `reveal()`
    gives the seed; anyone can check it against the commitment and re-derive every roll of the log
    (`conquista dice audit LOG --verify-seed SEED`).
    """

    name = DiceKind.COMMITTED.value

    def __init__(self, seed: bytes | None = None) -> None:
        self._seed = seed if seed is not None else os.urandom(COMMITTED_SEED_BYTES)
        if not self._seed:
            raise SeedError("a committed-dice seed cannot be empty")
        self.commitment = commitment_for(self._seed)
        self.rolls = 0
        self.draws = 0

    def roll(self, attack: int, defend: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        dice = committed_dice(self._seed, self.rolls, attack, defend)
        self.rolls += 1
        return dice

    def draw(self, cards: int) -> int:
        card = committed_below(self._seed, "draw", self.draws, cards)
        self.draws += 1
        return card

    def deal(self, territories: int, players: int, missions: tuple[int, ...]) -> Deal:
        return committed_deal(self._seed, territories, players, missions)

    def resume(self, rolls: int, draws: int) -> None:
        """Go on with the same stream after a game resumed from its log: `rolls` and `draws` already made."""
        self.rolls, self.draws = rolls, draws

    def header(self) -> dict[str, str]:
        """The `dice` object of the log header: the source, the commitment (never the seed) and what it covers."""
        return {"source": self.name, "commitment": self.commitment, "covers": COVERS}

    def secret(self) -> bytes:
        """The seed itself, for the journal's private file only (see conquista.journal.dice_secret)."""
        return self._seed

    def reveal(self) -> str:
        """The seed, hex. Call it when the game is over: once known, every later roll is predictable."""
        return self._seed.hex()

    def reveal_record(self) -> dict[str, str]:
        """The log line that ends a committed game: `{"meta": "dice_reveal", "seed": ...}`."""
        return {"meta": "dice_reveal", "seed": self.reveal()}


SOURCE_NAMES = tuple(kind.value for kind in DiceKind)


def make_source(name: str, seed: int | str | None = None) -> DiceSource:
    """A dice source by the name the log records: "os" (live default), "seeded" (needs `seed`), "committed"."""
    if name == DiceKind.OS:
        return OsDice()
    if name == DiceKind.SEEDED:
        if seed is None:
            raise ConquistaError("seeded dice need a seed; give one, or use the 'os' or 'committed' source")
        return SeededDice(seed)
    if name == DiceKind.COMMITTED:
        return CommittedDice()
    raise ConquistaError(f"unknown dice source {name!r}; known sources: {', '.join(SOURCE_NAMES)}")
