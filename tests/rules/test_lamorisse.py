"""lamorisse-1954 (RULES.md §4, docs/rules.md "lamorisse-1954"): worked scenarios for the progressive deal, the
round income, the power cards, the one-die battle and the win, and each [interpretation] parameter both ways."""

from __future__ import annotations

from typing import Any

import pytest

from conquista.errors import IllegalActionError, RulesetError
from conquista.rules import power_cards
from conquista.rules.actions import Attack, Draw, EndPhase, Occupy, Place, Roll, Trade
from conquista.rules.engine import Game
from conquista.rules.events import Phase, TerritoryDealt
from conquista.rules.gamelog import dump_lines, parse_log_lines
from conquista.rules.rulesets import load_ruleset
from conquista.rules.serialize import decode_action, encode_action
from tests.rules.helpers import MAP, dealt, position, tid

RULES = "lamorisse-1954"
NAPOLEON, GRENADIER, HUSSAR, CANNON = (power_cards.POWER_BASE + f for f in range(4))
EAGLE = power_cards.EAGLE_BASE
NO_DEAL: dict[str, Any] = {"undealt": [], "draws_due": 0}


def draw_due(game: Game) -> None:
    """Answer every card draw the game waits for with the top of the deck."""
    while game.phase is Phase.DRAW:
        game.apply(Draw(game.deck[0]))


def reinforcing(holdings: int, hand: list[int] | None = None, **overrides: Any) -> Game:
    """Red (seat 0) reinforcing with `holdings` territories (the first ones of the map), blue holding the rest."""
    owners = {MAP.id(t): 0 for t in range(holdings)}
    return position(RULES, 2, owners=owners, default_owner=1, phase=Phase.REINFORCE, hands={0: hand or []},
                    state=NO_DEAL, **overrides)


def test_the_ruleset_is_for_two_to_eight_players_with_eight_colours() -> None:
    rules = load_ruleset(RULES)
    assert (rules.players_min, rules.players_max, len(rules.colours)) == (2, 8, 8)
    assert (rules.attacker_dice_max, rules.defender_dice_max, rules.ties) == (1, 1, "reroll")
    assert rules.objective == "world" and rules.card_deck == "power"
    assert len(power_cards.deck(rules.power_figure_sets, rules.power_eagles)) == 96


def test_the_first_distribution_gives_each_player_four_territories_with_one_army() -> None:
    game = dealt(RULES, 8)
    assert game.territory_count == [4] * 8 and len(game.undealt) == 42 - 32
    assert all(game.armies[t] == (1 if game.owner[t] >= 0 else 0) for t in range(MAP.size))
    # Then each player is dealt four power cards, from the first player, before the first turn.
    assert game.phase is Phase.DRAW and game.current == 0 and game.draws_due == 4
    draw_due(game)
    assert [len(h) for h in game.hands] == [4] * 8 and len(game.deck) == 96 - 32
    # Four territories: one army and no card (the patent: "un'armata al posto delle quattro carte").
    assert (game.phase, game.current, game.turn, game.pool) == (Phase.REINFORCE, 0, 1, 1)


def test_a_distribution_at_each_round_deals_what_is_left_round_robin() -> None:
    game = dealt(RULES, 8)
    draw_due(game)
    left = list(game.undealt)
    events = []
    while game.round == 1:
        for action in (Place(next(t for t in range(MAP.size) if game.owner[t] == game.current), 1), EndPhase(),
                       EndPhase(), EndPhase()):
            if game.phase is Phase.DRAW:
                draw_due(game)
            if game.round > 1:
                break
            events += game.apply(action)
    dealt_now = [e for e in events if isinstance(e, TerritoryDealt)]
    # Ten left for eight players: the first two seats get two, the others one; each with its army.
    assert [e.territory for e in dealt_now] == left and game.undealt == []
    assert [e.player for e in dealt_now] == [0, 1, 2, 3, 4, 5, 6, 7, 0, 1]
    assert all(game.armies[t] >= 1 for t in left)


def test_the_deal_batch_parameter_sets_the_share_of_a_distribution() -> None:
    assert dealt(RULES, 2, deal_batch=4).territory_count == [4, 4]
    assert dealt(RULES, 2, deal_batch=2).territory_count == [2, 2]


def test_an_undealt_territory_cannot_be_attacked() -> None:
    game = dealt(RULES, 2)
    draw_due(game)
    undealt = set(game.undealt)
    pairs = [(s, t) for s in range(MAP.size) if game.owner[s] == 0 for t in MAP.neighbours[s] if t in undealt]
    assert pairs
    assert not any(game.attack_allowed(s, t) for s, t in pairs)


@pytest.mark.parametrize(("held", "armies", "cards"), [
    (3, 0, 0), (4, 1, 0), (5, 1, 1), (6, 1, 2), (7, 1, 3), (8, 1, 3), (9, 2, 1), (10, 2, 2), (14, 2, 2),
    (15, 3, 3), (30, 3, 3)])
def test_the_income_table_and_the_nearest_lower_row(held: int, armies: int, cards: int) -> None:
    game = reinforcing(held)
    assert game.income_row(0) == (armies, cards) and game.reinforcements_for(0) == armies


def test_the_income_cards_are_drawn_before_the_player_places() -> None:
    # Blue ends a turn: red's turn starts with 2 armies and 2 cards to draw.
    game = position(RULES, 2, owners={MAP.id(t): 0 for t in range(10)}, default_owner=1, current=1,
                    phase=Phase.FORTIFY, state=NO_DEAL)
    game.apply(EndPhase())
    assert (game.phase, game.current, game.pool, game.draws_due) == (Phase.DRAW, 0, 2, 2)
    draw_due(game)
    assert game.phase is Phase.REINFORCE and len(game.hands[0]) == 2


def test_an_income_table_without_rows_below_four_can_be_given_a_first_row() -> None:
    # [interpretation] 1-3 territories get nothing; a house rule adds a row.
    assert reinforcing(2).income_row(0) == (0, 0)
    table = [[1, 1, 0], [4, 1, 0], [5, 1, 1], [6, 1, 2], [7, 1, 3], [9, 2, 1], [10, 2, 2], [15, 3, 3]]
    assert reinforcing(2, income_table=table).income_row(0) == (1, 0)


def test_four_different_figures_make_one_army_and_an_eagle_five() -> None:
    game = reinforcing(4, [NAPOLEON, GRENADIER, HUSSAR, CANNON, EAGLE])
    assert game.valid_trades() == [(NAPOLEON, GRENADIER, HUSSAR, CANNON), (EAGLE,)]
    game.apply(Trade((NAPOLEON, GRENADIER, HUSSAR, CANNON)))
    assert game.pool == 1
    game.apply(Trade((EAGLE,)))
    assert game.pool == 6 and game.hands[0] == [] and len(game.discard) == 5


def test_a_trade_is_the_players_choice_and_a_wrong_set_is_refused_unchanged() -> None:
    second_napoleon = power_cards.POWER_BASE + 4
    game = reinforcing(4, [NAPOLEON, GRENADIER, HUSSAR, second_napoleon, EAGLE])
    assert EndPhase() in game.legal_actions()  # holding an eagle does not force a trade
    before = game.digest()
    for bad in [(NAPOLEON, GRENADIER, HUSSAR, second_napoleon), (NAPOLEON, GRENADIER, HUSSAR), (EAGLE, NAPOLEON),
                (power_cards.EAGLE_BASE + 1,)]:
        with pytest.raises(IllegalActionError):
            game.apply(Trade(bad))
        assert game.digest() == before


def test_one_die_each_ties_rolled_again_and_one_army_moves_in_at_least() -> None:
    game = position(RULES, 2, owners={"alaska": 0}, armies={"alaska": 3}, state=NO_DEAL)
    alaska, alberta = tid("alaska"), tid("alberta")
    game.apply(Attack(alaska, alberta, 1))
    game.apply(Roll((4,), (4,)))
    assert game.armies[alaska] == 3 and game.phase is Phase.ROLL  # a tie: rolled again
    game.apply(Roll((5,), (4,)))
    assert game.owner[alberta] == 0 and game.occupy_range() == (1, 2)
    game.apply(Occupy(1))


def test_ties_may_go_to_the_defender_instead() -> None:
    game = position(RULES, 2, owners={"alaska": 0}, armies={"alaska": 3}, state=NO_DEAL, ties="defender")
    game.apply(Attack(tid("alaska"), tid("alberta"), 1))
    game.apply(Roll((4,), (4,)))
    assert game.armies[tid("alaska")] == 2


def test_holding_every_territory_wins() -> None:
    game = position(RULES, 2, owners={"alaska": 0}, armies={"alaska": 3}, default_owner=0, state=NO_DEAL)
    snap = game.snapshot()
    snap["owner"][tid("alberta")] = 1
    snap["territory_count"] = [MAP.size - 1, 1]
    game = Game.from_snapshot(snap, game.rules, MAP)
    game.apply(Attack(tid("alaska"), tid("alberta"), 1))
    game.apply(Roll((6,), (1,)))  # the conquest of the last territory wins at once
    assert game.over and game.winner == 0 and game.over_reason == "world domination"


def test_no_starting_power_cards_starts_the_first_turn_at_once() -> None:
    game = dealt(RULES, 3, power_starting_cards=0)
    assert (game.phase, game.turn, game.hands) == (Phase.REINFORCE, 1, [[], [], []])


def test_power_cards_are_named_in_the_log_and_read_back() -> None:
    for card in (NAPOLEON, CANNON + 4 * 22, EAGLE + 3):
        encoded = encode_action(Draw(card), MAP)
        assert decode_action(encoded, MAP) == Draw(card)
    assert encode_action(Trade((EAGLE,)), MAP) == {"type": "trade", "cards": ["eagle:1"]}


def test_undo_takes_back_a_distribution_and_the_draws_exactly() -> None:
    game = dealt(RULES, 3)
    draw_due(game)
    states = [game.snapshot()]
    while game.round < 3 and not game.over:
        action = game.legal_actions()[-1] if game.phase is not Phase.DRAW else Draw(game.deck[0])
        game.apply(action)
        states.append(game.snapshot())
    while len(states) > 1:
        game.undo()
        states.pop()
        assert game.snapshot() == states[-1]


def test_a_game_log_round_trips_through_json() -> None:
    game = dealt(RULES, 8)
    draw_due(game)
    game.apply(Trade(game.valid_trades()[0])) if game.valid_trades() else None
    _, back = parse_log_lines(dump_lines(game), "<memory>")
    assert back.digest() == game.digest()


@pytest.mark.parametrize(("overrides", "message"), [
    ({"card_draw": "on_conquest"}, "card_deck = \"power\" needs card_draw"),
    ({"income_table": [[5, 1, 1], [4, 1, 0]]}, "income_table"),
    ({"income_table": [[4, 1]]}, "income_table"),
    ({"territory_bonus": 2}, "territory_bonus = 0"),
    ({"forced_trade_hand": 5}, "forced_trade_hand = 0"),
    ({"power_figure_sets": 0, "power_eagles": 0}, "power_figure_sets or power_eagles"),
    ({"deal": "dealt_somehow"}, "deal"),
])
def test_bad_1954_parameters_are_refused_by_name(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        load_ruleset(RULES, overrides)


def test_income_cards_need_an_income_table() -> None:
    with pytest.raises(RulesetError, match="income_table"):
        load_ruleset("italian", {"card_draw": "income"})
