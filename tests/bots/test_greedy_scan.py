"""Issue 31 §4: the greedy bot's attack scan asks the engine's `attack_allowed` only where it must (fleets, the neutral
army's attacks) and answers the plain case itself. Its choice must be the one the scan made when it asked the engine
of every pair: held here against that scan, kept as the reference, over seeded positions of every shipped ruleset."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from conquista.bots.greedy import GreedyBot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.rules.actions import Action, Blitz, EndPhase, Fortify
from conquista.rules.engine import Game
from conquista.rules.events import Phase
from conquista.rules.rulesets import SHIPPED_RULESETS, load_ruleset
from tests.bots.mixed_games import MAP, mixed_game


def reference_attack(bot: GreedyBot, game: Game) -> Action:
    """The scan as it was: every candidate pair asked of `attack_allowed`."""
    me, owner, armies, neighbours = game.acting_owner(), game.owner, game.armies, game.map.neighbours
    best: tuple[int, int] | None = None
    best_edge = bot._margin(game) - 1
    fleets = game.rules.fleets
    floor = best_edge + 2
    for s in [s for s in range(len(owner)) if owner[s] == me and armies[s] > floor]:
        usable = armies[s] - 1
        if usable - 1 <= best_edge:
            continue
        for t in neighbours[s]:
            if owner[t] != me:
                edge = usable - armies[t]
                if fleets and edge > best_edge:
                    edge = bot._unit_edge(game, me, s, t)
                if edge > best_edge and game.attack_allowed(s, t):
                    best, best_edge = (s, t), edge
    if best is None or not game.rules.blitz:
        return EndPhase()
    s, t = best
    return Blitz(s, t, max(1, armies[t] // 2 + 1) if armies[s] > armies[t] + 2 else 1)


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(SHIPPED_RULESETS), players=st.integers(2, 5), seed=st.integers(0, 10**6),
       margin=st.sampled_from([None, 0, 2]))
def test_the_scan_chooses_as_the_engine_would_allow(rules: str, players: int, seed: int, margin: int | None) -> None:
    game, dice, seats = mixed_game(rules, players, seed)
    probe = GreedyBot(margin)
    asked = 0
    while game.phase is not Phase.OVER and game.turn <= 60:
        if game.phase is Phase.ATTACK or game.phase is Phase.NEUTRAL_ATTACK:
            assert probe.choose(game) == reference_attack(probe, game)
            asked += 1
        who = game.to_move
        game.apply(seats[who].choose(game) if isinstance(who, int) else chance_action(game, dice))
    assert asked


@settings(max_examples=150, deadline=None)
@given(rules=st.sampled_from(["italian", "classic"]), players=st.integers(3, 5),
       owners=st.lists(st.integers(0, 1), min_size=MAP.size, max_size=MAP.size),
       lonely=st.lists(st.integers(0, MAP.size - 1), min_size=3, max_size=3, unique=True),
       armies=st.lists(st.integers(1, 9), min_size=MAP.size, max_size=MAP.size), round_=st.integers(1, 6),
       margin=st.sampled_from([None, 0, 1]))
def test_the_scan_keeps_a_last_territory_in_the_protected_rounds(rules: str, players: int, owners: list[int],
                                                                 lonely: list[int], armies: list[int], round_: int,
                                                                 margin: int | None) -> None:
    # Seats 2 and up hold one territory each: the italian rules protect it in the first rounds.
    owner = owners[:]
    for seat, t in zip(range(2, players), lonely, strict=False):
        owner[t] = seat
    base = new_game(load_ruleset(rules), MAP, players, random.Random(0))
    snap = base.snapshot()
    snap.update(owner=owner, armies=armies, territory_count=[owner.count(p) for p in range(players)],
                reserve=[0] * players, current=0, phase=Phase.ATTACK.value, round=round_, turn=round_ * players,
                pool=0, placed_total=sum(armies), lost_total=0)
    game = Game.from_snapshot(snap, base.rules, MAP)
    probe = GreedyBot(margin)
    assert probe.choose(game) == reference_attack(probe, game)


def reference_front(game: Game) -> int:
    """`_front` as it was: the key (-weakest enemy neighbour, own armies) compared as a tuple."""
    me, owner, armies, neighbours = game.current, game.owner, game.armies, game.map.neighbours
    best, best_key = -1, (0, 0)
    for t in range(len(owner)):
        if owner[t] != me:
            continue
        weakest = min((armies[n] for n in neighbours[t] if owner[n] != me), default=None)
        if weakest is not None and (best < 0 or (-weakest, armies[t]) > best_key):
            best, best_key = t, (-weakest, armies[t])
    return best if best >= 0 else owner.index(me)


@settings(max_examples=100, deadline=None)
@given(owners=st.lists(st.integers(0, 2), min_size=MAP.size, max_size=MAP.size),
       armies=st.lists(st.integers(1, 4), min_size=MAP.size, max_size=MAP.size), current=st.integers(0, 2))
def test_the_front_is_the_one_the_tuple_key_chose(owners: list[int], armies: list[int], current: int) -> None:
    owner = owners[:]
    owner[current] = current  # every seat holds something
    base = new_game(load_ruleset("classic"), MAP, 3, random.Random(0))
    snap = base.snapshot()
    snap.update(owner=owner, armies=armies, territory_count=[owner.count(p) for p in range(3)], reserve=[0] * 3,
                current=current, phase=Phase.REINFORCE.value, pool=3, placed_total=sum(armies), lost_total=0)
    game = Game.from_snapshot(snap, base.rules, MAP)
    assert GreedyBot()._front(game) == reference_front(game)


def reference_fortify(game: Game) -> Action:
    """`_fortify` as it was: the whole board walked for the own territories."""
    me, owner, armies, neighbours = game.current, game.owner, game.armies, game.map.neighbours
    best: tuple[int, int] | None = None
    best_armies = 1
    for s in range(len(owner)):
        if owner[s] != me or armies[s] <= best_armies or any(owner[n] != me for n in neighbours[s]):
            continue
        for t in neighbours[s]:
            if (owner[t] == me and any(owner[n] != me for n in neighbours[t])
                    and game.fortify_allowed(s, t)):
                best, best_armies = (s, t), armies[s]
                break
    if best is None:
        return EndPhase()
    s, t = best
    return Fortify(s, t, game.movable(s, t) if game.rules.fleets or game.rules.one_move_per_unit else armies[s] - 1)


@settings(max_examples=20, deadline=None)
@given(rules=st.sampled_from(["classic", "italian"]), players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_the_front_and_fortify_read_off_the_kept_territories_as_the_whole_board(rules: str, players: int,
                                                                                seed: int) -> None:
    # `_front` and `_fortify` read the own territories the attack scan keeps between calls: asked of the very bots
    # that play (their lists live across placements, attacks, conquests and other players' turns), they must choose
    # as the whole board's walk.
    ruleset = load_ruleset(rules)
    players = max(ruleset.players_min, min(players, ruleset.players_max))
    rng = random.Random(seed)
    game = new_game(ruleset, MAP, players, rng)
    dice = SeededDice(rng=rng)
    seats = [GreedyBot() for _ in range(players)]
    asked = 0
    while game.phase is not Phase.OVER and game.turn <= 80:
        who = game.to_move
        if not isinstance(who, int):
            game.apply(chance_action(game, dice))
            continue
        if game.phase in (Phase.SETUP, Phase.REINFORCE) and game.pool:
            assert seats[who]._front(game) == reference_front(game)
            asked += 1
        if game.phase is Phase.FORTIFY:
            assert seats[who]._fortify(game) == reference_fortify(game)
            asked += 1
        game.apply(seats[who].choose(game))
    assert asked
