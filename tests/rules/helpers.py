"""Builders for rule tests: a game at a chosen position without playing up to it."""

from __future__ import annotations

import random
from typing import Any

from conquista.rules.actions import Deal
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.rulesets import load_ruleset

MAP = load_map()


def tid(name: str) -> int:
    return MAP.index(name)


def dealt(rules: str = "italian", players: int = 3, seed: int = 0, **overrides: Any) -> Game:
    ruleset = load_ruleset(rules, overrides or None)
    rng = random.Random(seed)
    order = list(range(MAP.size))
    rng.shuffle(order)
    missions = tuple(ruleset.missions[:players]) if ruleset.objective == "missions" else ()
    return Game(ruleset, MAP, players, Deal(tuple(order), 0, missions))


def position(rules: str = "italian", players: int = 2, owners: dict[str, int] | None = None,
             armies: dict[str, int] | None = None, default_owner: int = 1, current: int = 0,
             phase: Phase = Phase.ATTACK, round_: int = 5, game_map: GameMap = MAP,
             hands: dict[int, list[int]] | None = None, state: dict[str, Any] | None = None,
             **overrides: Any) -> Game:
    """A game where every territory belongs to `default_owner` with 1 army, except those listed; `hands` gives
    seats their cards (taken out of the deck) and `state` sets any other field of the snapshot by name. Built with
    `Game.from_snapshot()`, never by writing into the engine."""
    base = dealt(rules, players, **overrides)
    snap = base.snapshot()
    owner = [default_owner] * game_map.size
    for name, seat in (owners or {}).items():
        owner[tid(name)] = seat
    army = [1] * game_map.size
    for name, count in (armies or {}).items():
        army[tid(name)] = count
    owners = len(snap["territory_count"])  # the seats, and the neutral army past them when it plays
    snap.update(owner=owner, armies=army, territory_count=[owner.count(p) for p in range(owners)],
                reserve=[0] * players, current=current, phase=phase.value, round=round_, turn=round_ * players,
                pool=0, placed_total=sum(army), lost_total=0)
    for seat, cards in (hands or {}).items():
        snap["hands"][seat] = list(cards)
        snap["deck"] = [c for c in snap["deck"] if c not in cards]
    snap.update(state or {})
    game = Game.from_snapshot(snap, base.rules, game_map)
    # A snapshot has no history; a journal expects a log that starts with a deal, so the position keeps its own.
    game.log.extend(base.log)
    return game


def edited(game: Game, **fields: Any) -> Game:
    """A copy of `game` with some fields of its snapshot replaced (hands=..., missions=...), built through
    `Game.from_snapshot()`; it keeps the log, so a journal or a referee can take it."""
    snap = game.snapshot()
    for name, value in fields.items():
        if name not in snap:
            raise KeyError(f"a game has no field {name!r}")
        snap[name] = value
    if "hands" in fields:  # a card in a hand is no longer in the deck
        held = {c for hand in fields["hands"] for c in hand}
        snap["deck"] = [c for c in snap["deck"] if c not in held]
    other = Game.from_snapshot(snap, game.rules, game.map)
    other.log.extend(game.log)
    return other


DUEL = "french-1976-duel"
NEUTRAL = 2  # the neutral army's owner value in a two-player game: one past the last seat
# Fifteen territories of red (seat 0) that complete no continent: income 15 // 3 = 5, an odd number.
RED = ["alaska", "northwest_territory", "greenland", "alberta", "ontario", "quebec", "western_us", "eastern_us",
       "venezuela", "peru", "brazil", "iceland", "scandinavia", "ukraine", "great_britain"]
# Fourteen territories of blue (seat 1) in Asia (not the whole of it); everything else is neutral.
BLUE = ["ural", "siberia", "yakutsk", "irkutsk", "mongolia", "japan", "afghanistan", "china", "middle_east",
        "india", "siam", "indonesia", "new_guinea", "western_australia"]


def duel(phase: Phase = Phase.ATTACK, owners: dict[str, int] | None = None, armies: dict[str, int] | None = None,
         **kw: Any) -> Game:
    """A duel position: red and blue as above, the neutral army everywhere else (1 army unless listed). Automatic
    defence unless told otherwise: the duel lets the defender choose, and most of these positions are about
    something else."""
    mine = {**{t: 0 for t in RED}, **{t: 1 for t in BLUE}, **(owners or {})}
    kw.setdefault("automatic_defence", True)
    return position(kw.pop("rules", DUEL), players=2, owners=mine, armies=armies, default_owner=NEUTRAL,
                    phase=phase, **kw)
