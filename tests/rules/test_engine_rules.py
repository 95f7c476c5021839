"""Each rule of RULES.md, position by position."""

import pytest

from conquista.errors import IllegalActionError, RulesetError
from conquista.rules.actions import Attack, Blitz, Defend, Draw, EndPhase, Fortify, Occupy, Place, Roll, Trade
from conquista.rules.engine import CHANCE
from conquista.rules.events import Phase, PlayerEliminated, TerritoryConquered, TurnStarted
from conquista.rules.missions import effective_mission, mission_complete
from tests.rules.helpers import MAP, dealt, position, tid

NA = [t.id for t in MAP.territories if MAP.continents[t.continent].id == "north_america"]
ASIA = [t.id for t in MAP.territories if MAP.continents[t.continent].id == "asia"]
CONTINENT = {c.id: [MAP.id(t) for t in c.territories] for c in MAP.continents}


# ----------------------------------------------------------------------------------------- deal and setup

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_round_robin_and_one_army_each(players: int) -> None:
    game = dealt("italian", players)
    assert all(o >= 0 for o in game.owner) and all(a == 1 for a in game.armies)
    counts = game.territory_count
    assert max(counts) - min(counts) <= 1 and sum(counts) == 42
    start = game.rules.starting_armies[players]
    assert sum(game.reserve) + game.pool == players * start - 42


def test_italian_initial_placement_in_batches_of_three() -> None:
    game = dealt("italian", 3)
    assert game.phase is Phase.SETUP and game.current == 0 and game.pool == 3
    mine = game.owner.index(0)
    game.apply(Place(mine, 2))
    assert game.current == 0 and game.pool == 1
    game.apply(Place(mine, 1))
    assert game.current == 1 and game.pool == 3
    with pytest.raises(IllegalActionError, match="is not yours"):
        game.apply(Place(mine, 1))


def test_french_initial_placement_all_at_once() -> None:
    game = dealt("french-1976", 3)
    assert game.pool == 35 - 14
    game.apply(Place(game.owner.index(0), 21))
    assert game.current == 1 and game.pool == 21


def test_first_turn_starts_after_setup() -> None:
    game = dealt("classic", 2)
    for _ in range(2):
        game.apply(Place(game.owner.index(game.current), game.pool))
    assert game.phase is Phase.REINFORCE and game.current == 0 and game.turn == 1 and game.round == 1
    assert game.pool == 21 // 3


# ------------------------------------------------------------------------------------------ reinforcements

def test_reinforcements_floor_without_minimum_in_italian() -> None:
    game = position("italian", owners={t: 0 for t in ["alaska", "alberta", "ontario", "peru", "congo"]})
    assert game.reinforcements_for(0) == 1  # 5 // 3, no minimum of 3


def test_classic_minimum_three() -> None:
    game = position("classic", owners={t: 0 for t in ["alaska", "alberta", "ontario", "peru", "congo"]})
    assert game.reinforcements_for(0) == 3


def test_continent_bonus() -> None:
    owners = {t: 0 for t in CONTINENT["south_america"] + CONTINENT["asia"]}
    game = position("italian", owners=owners)
    assert game.reinforcements_for(0) == 16 // 3 + 2 + 7


def test_fourteen_territories_give_four() -> None:
    game = position("italian", owners={MAP.id(t): 0 for t in range(0, 42, 3)})
    assert game.territory_count[0] == 14 and game.reinforcements_for(0) == 4


# ------------------------------------------------------------------------------------------------ cards

def _hand_of(symbols: list[str]) -> list[int]:
    """Cards (territory indices or jollies) with the given symbols, not owned by player 0 by default."""
    out, used = [], set()
    jolly = MAP.size
    for s in symbols:
        if s == "jolly":
            out.append(jolly)
            jolly += 1
            continue
        card = next(t.index for t in MAP.territories if t.card == s and t.index not in used)
        used.add(card)
        out.append(card)
    return out


@pytest.mark.parametrize(
    ("symbols", "value"),
    [
        (["cannon"] * 3, 4), (["infantry"] * 3, 6), (["cavalry"] * 3, 8),
        (["cannon", "infantry", "cavalry"], 10), (["jolly", "cannon", "cannon"], 12),
        (["jolly", "cannon", "cavalry"], 10),
    ],
)
def test_italian_set_values(symbols: list[str], value: int) -> None:
    game = position("italian", phase=Phase.REINFORCE, hands={0: _hand_of(symbols)})
    game.apply(Trade(tuple(game.hands[0])))
    assert game.pool == value and game.hands[0] == [] and len(game.discard) == 3


def test_french_rejects_jolly_with_two_different() -> None:
    game = position("french-1976", players=3, phase=Phase.REINFORCE,
                    hands={0: _hand_of(["jolly", "cannon", "cavalry"])})
    with pytest.raises(IllegalActionError, match="not a set in french-1976"):
        game.apply(Trade(tuple(game.hands[0])))


def test_classic_incremental_values_and_two_jollies() -> None:
    game = position("classic", phase=Phase.REINFORCE, hands={0: _hand_of(["jolly", "jolly", "cannon"])},
                    state={"sets_traded": 6})
    game.apply(Trade(tuple(game.hands[0])))
    assert game.pool == 20 and game.sets_traded == 7


def test_italian_territory_bonus_goes_to_the_pool() -> None:
    hand = _hand_of(["cannon", "infantry", "cavalry"])
    game = position("italian", phase=Phase.REINFORCE, owners={MAP.id(hand[0]): 0, MAP.id(hand[1]): 0},
                    hands={0: list(hand)})
    game.apply(Trade(tuple(hand)))
    assert game.pool == 10 + 2 * 2


def test_french_territory_bonus_goes_on_the_territory() -> None:
    hand = _hand_of(["cannon", "infantry", "cavalry"])
    game = position("french-1976", players=3, phase=Phase.REINFORCE, owners={MAP.id(hand[0]): 0, MAP.id(hand[1]): 0},
                    hands={0: list(hand)})
    game.apply(Trade(tuple(hand)))
    assert game.pool == 10 and game.armies[hand[0]] == 3 and game.armies[hand[1]] == 3


def test_classic_territory_bonus_on_one_territory_only() -> None:
    hand = _hand_of(["cannon", "infantry", "cavalry"])
    game = position("classic", phase=Phase.REINFORCE, owners={MAP.id(hand[0]): 0, MAP.id(hand[1]): 0},
                    hands={0: list(hand)})
    game.apply(Trade(tuple(hand)))
    assert game.pool == 4 and game.armies[hand[0]] + game.armies[hand[1]] == 2 + 2


def test_trades_only_before_the_first_attack() -> None:
    game = position("italian", phase=Phase.ATTACK, hands={0: _hand_of(["cannon"] * 3)})
    with pytest.raises(IllegalActionError, match="before the first attack"):
        game.apply(Trade(tuple(game.hands[0])))


def test_must_trade_at_five_cards() -> None:
    game = position("french-1976", players=3, phase=Phase.REINFORCE, owners={"alaska": 0},
                    hands={0: _hand_of(["cannon", "cannon", "infantry", "infantry", "cavalry"])})
    with pytest.raises(IllegalActionError, match="must trade"):
        game.apply(EndPhase())
    assert not any(isinstance(a, EndPhase) for a in game.legal_actions())
    game.apply(Trade((game.hands[0][0], game.hands[0][2], game.hands[0][4])))
    game.apply(Place(tid("alaska"), game.pool))
    game.apply(EndPhase())
    assert game.phase is Phase.ATTACK


def test_italian_has_no_hand_limit() -> None:
    game = position("italian", phase=Phase.REINFORCE,
                    hands={0: _hand_of(["cannon", "cannon", "infantry", "infantry", "cavalry", "cavalry"])})
    game.apply(EndPhase())
    assert game.phase is Phase.ATTACK


# ------------------------------------------------------------------------------------------------ battle

def test_attack_dice_limits_italian_three_defence_dice() -> None:
    game = position("italian", owners={"alaska": 0}, armies={"alaska": 4, "kamchatka": 5})
    with pytest.raises(IllegalActionError, match="1 to 3 dice"):
        game.apply(Attack(tid("alaska"), tid("kamchatka"), 4))
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    assert game.phase is Phase.ROLL and game.to_move == CHANCE
    assert game.battle is not None and (game.battle.attack_dice, game.battle.defend_dice) == (3, 3)


def test_classic_two_defence_dice() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 4, "kamchatka": 5})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    assert game.battle is not None and game.battle.defend_dice == 2


@pytest.mark.parametrize("rules", ["classic", "french-1976"])
def test_the_defender_chooses_by_default_in_classic_and_french(rules: str) -> None:
    # RULES.md §2, §3: the defender chooses 1 or 2 dice after hearing the attacker's count.
    players = 3 if rules == "french-1976" else 2
    game = position(rules, players=players, owners={"alaska": 0}, armies={"alaska": 4, "kamchatka": 5})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    assert game.phase is Phase.DEFEND and game.to_move == 1
    assert game.legal_actions() == [Defend(1), Defend(2)]
    game.apply(Defend(1))
    assert game.battle is not None and game.battle.defend_dice == 1 and game.phase is Phase.ROLL


def test_attack_needs_two_armies_adjacency_and_an_enemy() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, armies={"alaska": 1, "alberta": 3})
    with pytest.raises(IllegalActionError, match="at least 2 armies"):
        game.apply(Attack(tid("alaska"), tid("kamchatka"), 1))
    with pytest.raises(IllegalActionError, match="is yours"):
        game.apply(Attack(tid("alberta"), tid("alaska"), 1))
    with pytest.raises(IllegalActionError, match="not adjacent") as err:
        game.apply(Attack(tid("alberta"), tid("brazil"), 1))
    assert "brazil" in str(err.value) and "alberta" in str(err.value) and "attack" in str(err.value)


def test_roll_must_match_the_dice_count() -> None:
    game = position("italian", owners={"alaska": 0}, armies={"alaska": 4, "kamchatka": 2})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 2))
    with pytest.raises(IllegalActionError, match="2 attack dice and 2 defence dice"):
        game.apply(Roll((6, 6, 6), (1, 1)))
    with pytest.raises(IllegalActionError, match="1 to 6"):
        game.apply(Roll((7, 6), (1, 1)))


def test_conquest_moves_last_dice_and_occupy_range() -> None:
    game = position("italian", owners={"alaska": 0}, armies={"alaska": 6, "kamchatka": 1})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 2))
    events = game.apply(Roll((6, 5), (1,)))
    assert any(isinstance(e, TerritoryConquered) for e in events)
    assert game.owner[tid("kamchatka")] == 0 and game.armies[tid("kamchatka")] == 2
    assert game.phase is Phase.OCCUPY and game.occupy_range() == (2, 5)
    with pytest.raises(IllegalActionError, match="move 2 to 5"):
        game.apply(Occupy(1))
    game.apply(Occupy(5))
    assert (game.armies[tid("alaska")], game.armies[tid("kamchatka")]) == (1, 5)
    assert game.phase is Phase.ATTACK and game.turn_state.conquered and game.battle is None


def test_blitz_repeats_until_stop_level() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 6, "kamchatka": 9})
    game.apply(Blitz(tid("alaska"), tid("kamchatka"), stop_at=3))
    game.apply(Roll((1, 1, 1), (6, 6)))   # attacker 6 → 4
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.attack_dice == 3
    game.apply(Roll((1, 1, 1), (6, 6)))   # 4 → 2: at or below the stop level, the blitz stops
    assert game.phase is Phase.ATTACK and game.armies[tid("alaska")] == 2


def test_blitz_until_conquest() -> None:
    game = position("classic", automatic_defence=True, owners={"alaska": 0}, armies={"alaska": 10, "kamchatka": 3})
    game.apply(Blitz(tid("alaska"), tid("kamchatka")))
    game.apply(Roll((6, 6, 6), (1, 1)))
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 1
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.phase is Phase.OCCUPY and game.owner[tid("kamchatka")] == 0


def test_chosen_defence() -> None:
    game = position("french-1976", players=3, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 4},
                    automatic_defence=False)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    assert game.phase is Phase.DEFEND and game.to_move == 1
    assert game.legal_actions() == [Defend(1), Defend(2)]
    game.apply(Defend(1))
    game.apply(Roll((2, 2, 2), (3,)))
    assert game.armies[tid("alaska")] == 4


def test_no_elimination_before_round_five_in_italian() -> None:
    owners = {MAP.id(t): 0 for t in range(42)}
    owners["kamchatka"] = 1
    game = position("italian", owners=owners, armies={"alaska": 5}, round_=4, default_owner=0)
    with pytest.raises(IllegalActionError, match="before round 5"):
        game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    game = position("italian", owners=owners, armies={"alaska": 5}, round_=5, default_owner=0)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))


def test_elimination_takes_cards_and_classic_forces_trade_down_to_four() -> None:
    owners = {MAP.id(t): 0 for t in range(42)}
    owners["kamchatka"] = 1
    owners["brazil"] = 2
    # Seat 1 holds a jolly and three territory cards.
    game = position("classic", automatic_defence=True, players=3, owners=owners, armies={"alaska": 5}, default_owner=0,
                    hands={0: _hand_of(["cannon", "infantry"]),
                           1: [MAP.size, tid("japan"), tid("egypt"), tid("peru")]})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert PlayerEliminated(1, 0, 4) in events
    assert game.eliminated[1] and len(game.hands[0]) == 6 and game.hands[1] == []
    game.apply(Occupy(3))
    assert game.phase is Phase.ELIMINATION_TRADE and game.must_trade()
    with pytest.raises(IllegalActionError, match="must trade"):
        game.apply(EndPhase())
    while len(game.hands[0]) > 4:
        game.apply(game.legal_actions()[0])
        if game.pool:
            game.apply(Place(tid("alaska"), game.pool))
    game.apply(EndPhase())
    assert game.phase is Phase.ATTACK


def test_world_domination_ends_the_game() -> None:
    owners = {MAP.id(t): 0 for t in range(42)}
    owners["kamchatka"] = 1
    game = position("classic", automatic_defence=True, owners=owners, armies={"alaska": 5}, default_owner=0)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.over and game.winner == 0 and game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(EndPhase())


# --------------------------------------------------------------------------------------- fortify and draw

def test_one_fortify_move_to_an_adjacent_territory_ends_the_turn() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0, "ontario": 0}, armies={"alaska": 5},
                    phase=Phase.FORTIFY)
    with pytest.raises(IllegalActionError, match="adjacent"):
        game.apply(Fortify(tid("alaska"), tid("ontario"), 2))
    with pytest.raises(IllegalActionError, match="leaving one behind"):
        game.apply(Fortify(tid("alaska"), tid("alberta"), 5))
    events = game.apply(Fortify(tid("alaska"), tid("alberta"), 4))
    assert any(isinstance(e, TurnStarted) and e.player == 1 for e in events)


def test_connected_fortify_when_configured() -> None:
    game = position("classic", owners={"alaska": 0, "alberta": 0, "ontario": 0}, armies={"alaska": 5},
                    phase=Phase.FORTIFY, fortify_path="connected")
    game.apply(Fortify(tid("alaska"), tid("ontario"), 2))
    assert game.armies[tid("ontario")] == 3


def test_card_drawn_only_after_a_conquest_and_deck_reshuffled() -> None:
    game = position("italian", phase=Phase.FORTIFY)
    game.apply(EndPhase())
    assert game.current == 1 and game.phase is Phase.REINFORCE  # no conquest: no card
    game = position("italian", phase=Phase.FORTIFY)
    game = position("italian", phase=Phase.FORTIFY,
                    state={"turn_state": {**game.turn_state._asdict(), "conquered": True},
                           "deck": [], "discard": list(game.deck)})
    game.apply(EndPhase())
    assert game.phase is Phase.DRAW and game.to_move == CHANCE
    assert len(game.legal_actions()) == 44
    game.apply(Draw(7))
    assert game.hands[0] == [7] and len(game.deck) == 43 and game.discard == []


def test_rounds_count_when_every_live_player_has_played() -> None:
    game = position("italian", players=3, phase=Phase.FORTIFY, round_=1, owners={"alaska": 0, "peru": 2},
                    state={"first_player": 0})
    for expected_round, seat in [(1, 1), (1, 2), (2, 0)]:
        while game.phase is not Phase.FORTIFY:
            game.apply(EndPhase() if not game.pool else Place(game.owner.index(game.current), game.pool))
        game.apply(EndPhase())
        assert (game.current, game.round) == (seat, expected_round)


# ---------------------------------------------------------------------------------------------- missions

def _mission_game(number: int, owners: dict[str, int], armies: dict[str, int] | None = None,
                  players: int = 3) -> tuple[bool, int]:
    game = position("italian", players=players, owners=owners, armies=armies,
                    state={"missions": (number, 7, 8)[:players]})
    return mission_complete(game, 0), effective_mission(game, 0).territories


@pytest.mark.parametrize(
    ("number", "continents"),
    [(1, ["north_america", "africa"]), (2, ["north_america", "oceania"]), (3, ["asia", "south_america"]),
     (4, ["asia", "africa"])],
)
def test_two_continent_missions(number: int, continents: list[str]) -> None:
    owners = {t: 0 for c in continents for t in CONTINENT[c]}
    assert _mission_game(number, owners)[0]
    owners.pop(CONTINENT[continents[1]][0])
    assert not _mission_game(number, owners)[0]


@pytest.mark.parametrize("number", [5, 6])
def test_europe_plus_and_a_third_continent(number: int) -> None:
    second = "south_america" if number == 5 else "oceania"
    owners = {t: 0 for c in ["europe", second] for t in CONTINENT[c]}
    assert not _mission_game(number, owners)[0]
    owners.update({t: 0 for t in CONTINENT["africa"]})
    assert _mission_game(number, owners)[0]


def test_twenty_four_territories() -> None:
    owners = {MAP.id(t): 0 for t in range(24)}
    assert _mission_game(7, owners)[0]
    owners.pop(MAP.id(0))
    assert not _mission_game(7, owners)[0]


def test_eighteen_territories_with_two_armies() -> None:
    owners = {MAP.id(t): 0 for t in range(18)}
    assert not _mission_game(8, owners)[0]
    assert _mission_game(8, owners, {MAP.id(t): 2 for t in range(18)})[0]


@pytest.mark.parametrize("number", range(9, 15))
def test_destroy_colour_missions(number: int) -> None:
    target = number - 9
    missions = {"missions": (number, 1, 2, 3, 4, 5)}
    game = position("italian", players=6, owners={"alaska": 0}, armies={"alaska": 5}, default_owner=target,
                    state=missions)
    if target == 0:
        # Own colour: the mission is 24 territories instead.
        assert effective_mission(game, 0).territories == 24
        return
    assert not mission_complete(game, 0)

    def destroyed_by(seat: int) -> dict[str, object]:
        eliminated, by = [False] * 6, [None] * 6
        eliminated[target], by[target] = True, seat
        return {**missions, "eliminated": eliminated, "eliminated_by": by}

    game = position("italian", players=6, owners={"alaska": 0}, armies={"alaska": 5}, default_owner=target,
                    state=destroyed_by(0))
    assert mission_complete(game, 0)
    game = position("italian", players=6, owners={"alaska": 0}, armies={"alaska": 5}, default_owner=target,
                    state=destroyed_by(2))  # destroyed by someone else: 24 territories instead
    assert not mission_complete(game, 0) and effective_mission(game, 0).territories == 24


def test_destroy_a_colour_not_in_play_becomes_24_territories() -> None:
    assert _mission_game(14, {"alaska": 0})[1] == 24


def test_completing_a_mission_wins_at_once() -> None:
    owners = {t: 0 for c in ["north_america", "africa"] for t in CONTINENT[c]}
    owners.pop("egypt")
    game = position("italian", players=2, owners=owners, armies={"north_africa": 4}, state={"missions": (1, 7)})
    game.apply(Attack(tid("north_africa"), tid("egypt"), 3))
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.over and game.winner == 0 and "mission 1" in game.over_reason


def test_missions_need_the_maps_continents() -> None:
    from conquista.rules.actions import Deal
    from conquista.rules.engine import Game
    from conquista.rules.mapdata import parse_map
    from conquista.rules.rulesets import load_ruleset

    small = parse_map({"territories": [{"id": "a"}, {"id": "b"}],
                       "continents": [{"id": "only", "bonus": 1, "territories": ["a", "b"]}],
                       "links": [{"a": "a", "b": "b"}]}, "tiny.json")
    with pytest.raises(RulesetError, match="mission 1 needs continent 'north_america'"):
        Game(load_ruleset("italian"), small, 2, Deal((0, 1), 0, (1, 2)))
