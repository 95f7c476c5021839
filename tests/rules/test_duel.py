"""french-1976-duel (RULES.md §2a) and the neutral army, worked scenarios: the deal, the neutral reinforcements and
who places them, the neutral turn, defence dice for the neutral army, no card for a neutral conquest, the neutral army
wiped out, the win; `classic` with 2 players and the neutral army as an option."""

from __future__ import annotations

import pytest

from conquista.errors import IllegalActionError, RulesetError
from conquista.rules.actions import Attack, Blitz, Defend, EndPhase, Fortify, Occupy, Place, Roll
from conquista.rules.events import (
    ArmiesPlaced,
    GameOver,
    NeutralArmyDefeated,
    NeutralReinforcements,
    Phase,
    PhaseStarted,
    PlayerEliminated,
)
from conquista.rules.rulesets import load_ruleset
from tests.rules.helpers import BLUE, DUEL, MAP, NEUTRAL, RED, dealt, duel, tid


def test_the_ruleset() -> None:
    r = load_ruleset(DUEL)
    assert (r.players_min, r.players_max, r.starting_armies) == (2, 2, {2: 40})
    assert r.neutral_army and r.neutral_territory_armies == 2 and r.objective == "world"
    assert r.neutral_reinforcement_rounding == "down"
    assert r.defender_dice_max == 2 and r.valid_sets == load_ruleset("french-1976").valid_sets  # french-1976's rules


def test_french_1976_is_for_three_to_six_players() -> None:
    with pytest.raises(RulesetError, match="'french-1976' is for 3–6 players, not 2"):
        dealt("french-1976", 2)
    dealt("french-1976", 3)


def test_deal_fourteen_each_and_two_neutral_armies_per_territory() -> None:
    game = dealt(DUEL, 2)
    assert game.territory_count == [14, 14, 14] and game.neutral == NEUTRAL
    neutral = [t for t in range(MAP.size) if game.owner[t] == NEUTRAL]
    assert len(neutral) == 14 and all(game.armies[t] == 2 for t in neutral)
    assert game.reserve == [0, 26] and game.pool == 26 and game.phase is Phase.SETUP  # 40 − 14 each
    assert game.placed_total == sum(game.armies) == 14 + 14 + 28
    # The neutral army has no turn of its own: the two seats place, then red's turn starts.
    game.apply(Place(game.owner.index(0), 26))
    assert game.current == 1 and game.to_move == 1
    game.apply(Place(game.owner.index(1), 26))
    assert game.phase is Phase.REINFORCE and game.current == 0 and game.turn == 1


def test_a_neutral_army_is_for_two_players_only() -> None:
    with pytest.raises(RulesetError, match="is for 2 players, not 3"):
        dealt(DUEL, 3)
    with pytest.raises(RulesetError, match="neutral army, a two-player game: not for 3 players"):
        dealt("classic", 3, neutral_army=True)
    with pytest.raises(RulesetError, match='neutral_army = true needs objective = "world"'):
        load_ruleset("italian", {"neutral_army": True})


@pytest.mark.parametrize(("rounding", "expected"), [("down", 2), ("up", 3)])
def test_neutral_reinforcements_are_half_the_income_and_the_opponent_places_them(rounding: str,
                                                                                 expected: int) -> None:
    game = duel(Phase.REINFORCE, neutral_reinforcement_rounding=rounding)
    assert game.reinforcements_for(0) == 5 and game.neutral_reinforcements() == expected
    events = game.apply(EndPhase())
    assert events == [NeutralReinforcements(1, expected)]
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.pool == expected
    assert game.current == 0 and game.to_move == 1 and game.acting_owner() == NEUTRAL
    target = tid("central_america")  # neutral, next to red's western and eastern US
    assert set(game.legal_actions()) == {Place(t, c) for t in range(MAP.size) if game.owner[t] == NEUTRAL
                                         for c in range(1, expected + 1)}
    with pytest.raises(IllegalActionError, match="alaska is not the neutral army's"):
        game.apply(Place(tid("alaska"), 1))
    with pytest.raises(IllegalActionError, match="ural is not the neutral army's"):
        game.apply(Place(tid("ural"), 1))
    with pytest.raises(IllegalActionError, match="neutral armies are still to place"):
        game.apply(EndPhase())
    game.apply(Place(target, expected - 1))
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.pool == 1
    events = game.apply(Place(target, 1))
    assert game.armies[target] == 1 + expected
    assert events[-1] == PhaseStarted(1, Phase.NEUTRAL_ATTACK) and game.to_move == 1


def test_card_sets_do_not_count_in_the_neutral_reinforcements() -> None:
    game = duel(Phase.REINFORCE, state={"pool": 20})
    game.apply(Place(tid("alaska"), 20))
    game.apply(EndPhase())
    assert game.pool == 2


def test_the_neutral_turn_attacks_only_the_current_players_territories() -> None:
    # Central America (neutral, 6) borders red's Western and Eastern US and neutral Mexico's neighbours; North Africa
    # (neutral, 5) borders red's Brazil and neutral Egypt; Middle East is blue's and borders neutral Egypt.
    game = duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 6, "north_africa": 5, "egypt": 3})
    assert game.to_move == 1
    with pytest.raises(IllegalActionError, match="the neutral army attacks only the player whose turn it is"):
        game.apply(Attack(tid("egypt"), tid("middle_east"), 2))      # never against the opponent who commands it
    with pytest.raises(IllegalActionError, match="egypt is the neutral army's"):
        game.apply(Attack(tid("north_africa"), tid("egypt"), 3))     # never neutral against neutral
    with pytest.raises(IllegalActionError, match="western_us is not the neutral army's"):
        game.apply(Attack(tid("western_us"), tid("central_america"), 1))
    attacks = {(a.source, a.target) for a in game.legal_actions() if isinstance(a, Attack)}
    assert attacks and all(game.owner[s] == NEUTRAL and game.owner[t] == 0 for s, t in attacks)
    assert (tid("central_america"), tid("western_us")) in attacks and (tid("egypt"), tid("middle_east")) not in attacks
    game.apply(Attack(tid("central_america"), tid("western_us"), 3))
    assert game.phase is Phase.ROLL
    game.apply(Roll((1, 1, 1), (6,)))
    assert game.phase is Phase.NEUTRAL_ATTACK and game.armies[tid("central_america")] == 5
    events = game.apply(EndPhase())
    assert events == [PhaseStarted(0, Phase.ATTACK)] and game.to_move == 0
    assert game.legal_actions()[-1] == EndPhase() and not game.turn_state.attacked


def test_no_neutral_turn_when_no_neutral_territory_can_attack() -> None:
    game = duel(Phase.REINFORCE)  # every neutral territory holds 1 army
    game.apply(EndPhase())
    game.apply(Place(tid("egypt"), 1))
    assert game.phase is Phase.NEUTRAL_REINFORCE
    # Egypt borders blue's Middle East and neutral territories only: the neutral army cannot attack red.
    assert game.apply(Place(tid("egypt"), 1)) == [ArmiesPlaced(NEUTRAL, tid("egypt"), 1),
                                                   PhaseStarted(0, Phase.ATTACK)]
    assert game.to_move == 0


def test_a_neutral_conquest_earns_no_card_and_the_opponent_moves_in() -> None:
    game = duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 8})
    game.apply(Blitz(tid("central_america"), tid("western_us"), 1))
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.owner[tid("western_us")] == NEUTRAL and game.territory_count == [14, 14, 14]
    assert game.phase is Phase.OCCUPY and game.to_move == 1 and game.acting_owner() == NEUTRAL
    assert game.occupy_range() == (3, 7) and game.armies[tid("western_us")] == 3  # the dice rule: 3 moved in
    game.apply(Occupy(5))
    assert game.phase is Phase.NEUTRAL_ATTACK and not game.turn_state.conquered
    game.apply(EndPhase())
    game.apply(EndPhase())  # red ends the attack
    game.apply(EndPhase())  # ... and the fortify phase: no card to draw
    assert game.phase is Phase.REINFORCE and game.current == 1


def test_the_opponent_chooses_the_neutral_armys_defence_dice() -> None:
    game = duel(armies={"western_us": 5, "central_america": 3}, automatic_defence=False)
    game.apply(Attack(tid("western_us"), tid("central_america"), 3))
    assert game.phase is Phase.DEFEND and game.to_move == 1 and game.acting_owner() == NEUTRAL
    assert game.legal_actions() == [Defend(1), Defend(2)]
    game.apply(Defend(1))
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 1
    game.apply(Roll((2, 2, 2), (3,)))
    assert game.phase is Phase.ATTACK and game.to_move == 0


def test_the_current_player_defends_against_the_neutral_army() -> None:
    game = duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 5, "western_us": 3}, automatic_defence=False)
    game.apply(Attack(tid("central_america"), tid("western_us"), 3))
    assert game.phase is Phase.DEFEND and game.to_move == 0
    game.apply(Defend(2))
    game.apply(Roll((6, 5, 1), (1, 1)))
    assert game.phase is Phase.NEUTRAL_ATTACK and game.to_move == 1


def test_automatic_defence_rolls_the_neutral_maximum() -> None:
    game = duel(armies={"western_us": 5, "central_america": 3})
    game.apply(Attack(tid("western_us"), tid("central_america"), 3))
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 2


def test_the_neutral_army_wiped_out_leaves_a_plain_duel() -> None:
    # The neutral army's last territory: red takes it, and from then on there is no neutral turn.
    owners = {MAP.id(t): 0 for t in range(MAP.size) if MAP.id(t) not in BLUE}
    owners["central_america"] = NEUTRAL
    game = duel(owners=owners, armies={"western_us": 6})
    assert game.territory_count == [27, 14, 1]
    game.apply(Blitz(tid("western_us"), tid("central_america"), 1))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert NeutralArmyDefeated(0) in events and game.territory_count == [28, 14, 0]
    assert game.eliminated == [False, False] and not game.over
    game.apply(Occupy(3))
    game.apply(EndPhase())
    game.apply(Fortify(tid("western_us"), tid("central_america"), 1))  # one move ends the turn: red drew a card
    assert game.phase is Phase.DRAW
    game.apply(game.legal_actions()[0])
    assert game.current == 1 and game.phase is Phase.REINFORCE
    game.apply(Place(tid("ural"), game.pool))
    assert game.apply(EndPhase()) == [PhaseStarted(1, Phase.ATTACK)]


def test_the_win_is_every_territory_of_the_opponent_with_the_neutral_army_still_standing() -> None:
    owners = {t: 0 for t in BLUE[1:]}
    game = duel(owners=owners, armies={"afghanistan": 5})
    assert game.territory_count[1] == 1 and game.territory_count[NEUTRAL] > 0
    game.apply(Blitz(tid("afghanistan"), tid("ural"), 1))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert PlayerEliminated(1, 0, 0) in events and GameOver(0, "every territory of the opponent") in events
    assert game.over and game.winner == 0 and game.territory_count[NEUTRAL] == 13


def test_the_neutral_army_taking_the_current_players_last_territory_wins_for_the_opponent() -> None:
    owners = {t: NEUTRAL for t in RED if t != "western_us"}
    game = duel(Phase.NEUTRAL_ATTACK, owners=owners, armies={"central_america": 5})
    game.apply(Blitz(tid("central_america"), tid("western_us"), 1))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert PlayerEliminated(0, NEUTRAL, 0) in events and GameOver(1, "every territory of the opponent") in events
    assert game.winner == 1 and game.eliminated_by[0] == NEUTRAL and game.legal_actions() == []


def test_classic_with_two_players_takes_the_neutral_army_as_an_option() -> None:
    plain = dealt("classic", 2)
    assert plain.neutral is None and plain.territory_count == [21, 21]
    game = dealt("classic", 2, neutral_army=True)
    assert game.neutral == NEUTRAL and game.territory_count == [14, 14, 14]
    game = duel(Phase.REINFORCE, rules="classic", neutral_army=True)
    assert game.reinforcements_for(0) == 5
    game.apply(EndPhase())
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.pool == 2 and game.to_move == 1
