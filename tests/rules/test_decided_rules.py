"""Rules decided on 2026-11-26 (RULES.md §2, §2a, §4, §5), each as a worked scenario: french-1976's trade down
after an elimination, lamorisse-1954's early end, a leaver who draws no card, the defender asked only when there is
a choice, the duel's neutral steps for a player who left or whose clock ran out."""

from __future__ import annotations

import random

import pytest

from conquista.bots import make_bot
from conquista.dice.chance import chance_action, new_game
from conquista.dice.sources import SeededDice
from conquista.errors import IllegalActionError
from conquista.rules.actions import Attack, Blitz, Defend, Draw, EndPhase, Leave, Occupy, Place, Roll, TimeOut, Trade
from conquista.rules.engine import Game
from conquista.rules.events import (
    ArmiesMoved,
    ArmiesPlaced,
    NeutralReinforcements,
    NeutralStepsEnded,
    Phase,
    PhaseStarted,
    PlayerEliminated,
    PlayerLeft,
)
from conquista.rules.gamelog import dump_lines, parse_log_lines
from conquista.rules.rulesets import load_ruleset, ruleset_from_dict
from tests.rules.helpers import DUEL, MAP, NEUTRAL, duel, position, tid

ALASKA, KAMCHATKA = tid("alaska"), tid("kamchatka")


def _cards(symbol: str, count: int, skip: tuple[int, ...] = ()) -> list[int]:
    return [t.index for t in MAP.territories if t.card == symbol and t.index not in skip][:count]


# ------------------------------------------------------------- 1. french-1976: trade down below 5 after an elimination

def _red_beats_yellow(hands: dict[int, list[int]]) -> Game:
    """french-1976, 3 players: red (seat 0) takes kamchatka, yellow's (seat 2) last territory, and moves in."""
    game = position("french-1976", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5},
                    hands=hands, state={"missions": [8, 9, 7]}, automatic_defence=True)
    game.apply(Attack(ALASKA, KAMCHATKA, 3))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert PlayerEliminated(2, 0, len(hands.get(2, []))) in events
    game.apply(Occupy(3))
    return game


def test_french_1976_holding_eight_after_an_elimination_trades_below_five_before_attacking_on() -> None:
    cannons, infantry = _cards("cannon", 3), _cards("infantry", 3)
    cavalry = _cards("cavalry", 2)
    game = _red_beats_yellow({0: cannons, 2: infantry + cavalry})
    assert len(game.hands[0]) == 8
    assert game.phase is Phase.ELIMINATION_TRADE and game.must_trade()
    with pytest.raises(IllegalActionError, match="you hold 8 cards and must trade"):
        game.apply(EndPhase())
    assert EndPhase() not in game.legal_actions()
    game.apply(Trade(tuple(infantry)))
    if game.pool:
        game.apply(Place(ALASKA, game.pool))
    assert len(game.hands[0]) == 5 and game.must_trade()  # 5 is not below 5: trade again
    with pytest.raises(IllegalActionError, match="you hold 5 cards and must trade"):
        game.apply(EndPhase())
    game.apply(Trade(tuple(cannons)))
    if game.pool:
        game.apply(Place(ALASKA, game.pool))
    assert len(game.hands[0]) == 2 and not game.must_trade()
    game.apply(EndPhase())
    assert game.phase is Phase.ATTACK


def test_french_1976_holding_four_after_an_elimination_may_attack_on_at_once() -> None:
    cannons = _cards("cannon", 3)
    game = _red_beats_yellow({0: cannons[:2], 2: [cannons[2], _cards("infantry", 1)[0]]})
    assert len(game.hands[0]) == 4
    assert game.phase is Phase.ELIMINATION_TRADE and not game.must_trade()
    game.apply(EndPhase())
    assert game.phase is Phase.ATTACK


# ------------------------------------------------- 3. lamorisse-1954 ends when only one player holds territories

def _lamorisse_with_undealt(owners: dict[str, int], armies: dict[str, int], players: int = 2) -> Game:
    """lamorisse-1954: the territories of `owners` dealt, every other one still undealt (nobody's, no army)."""
    owner = [-1] * MAP.size
    army = [0] * MAP.size
    for name, seat in owners.items():
        owner[tid(name)] = seat
        army[tid(name)] = armies.get(name, 1)
    undealt = [t for t in range(MAP.size) if owner[t] < 0]
    return position("lamorisse-1954", players, state={
        "owner": owner, "armies": army, "territory_count": [owner.count(p) for p in range(players)],
        "undealt": undealt, "draws_due": 0, "fleets": [0] * MAP.size, "placed_total": sum(army)})


def test_lamorisse_ends_at_once_when_only_one_player_holds_territories_with_some_undealt() -> None:
    game = _lamorisse_with_undealt({"alberta": 0, "ontario": 0, "alaska": 1}, {"alberta": 3})
    assert len(game.undealt) == 39
    game.apply(Attack(tid("alberta"), ALASKA, 1))
    events = game.apply(Roll((6,), (1,)))
    assert game.over and game.winner == 0 and game.over_reason == "the last player holding territories"
    assert any(isinstance(e, PlayerEliminated) for e in events) and game.legal_actions() == []


def test_lamorisse_goes_on_while_another_player_still_holds_a_territory() -> None:
    game = _lamorisse_with_undealt({"alberta": 0, "alaska": 1, "peru": 2}, {"alberta": 3}, players=3)
    game.apply(Attack(tid("alberta"), ALASKA, 1))
    game.apply(Roll((6,), (1,)))
    assert not game.over and game.eliminated[1] and game.phase is Phase.OCCUPY


# ------------------------------------------------------------------------- 5. a player who leaves draws no card

def _red_conquers_kamchatka(**overrides: object) -> Game:
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 1, "peru": 2}, armies={"alaska": 5},
                    state={"missions": [8, 9, 7]}, **overrides)
    game.apply(Attack(ALASKA, KAMCHATKA, 3))
    game.apply(Roll((6, 6, 6), (1,)))
    game.apply(Occupy(3))
    assert game.turn_state.conquered
    return game


def test_a_player_who_leaves_after_a_conquest_draws_no_card() -> None:
    game = _red_conquers_kamchatka()
    deck = list(game.deck)
    game.apply(Leave(0))
    assert game.phase is Phase.REINFORCE and game.current == 1  # no draw step: the turn passed at once
    assert game.hands[0] == [] and game.deck == deck


def test_a_time_out_after_a_conquest_still_draws_the_card() -> None:
    game = _red_conquers_kamchatka(turn_time_limit_s=60)
    game.apply(TimeOut())
    assert game.phase is Phase.DRAW and game.current == 0
    card = game.deck[0]
    game.apply(Draw(card))
    assert game.hands[0] == [card] and game.current == 1


def test_a_leaver_keeps_the_hand_they_hold_until_their_last_territory_falls() -> None:
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 5},
                    default_owner=2, hands={1: [tid("peru"), tid("egypt")]}, state={"missions": [8, 9, 1]})
    game.apply(Leave(1))
    assert game.hands[1] == [tid("peru"), tid("egypt")]
    game.apply(Attack(ALASKA, KAMCHATKA, 3))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert PlayerEliminated(1, 0, 2) in events and game.hands[1] == [] and len(game.hands[0]) == 2


# ------------------------------------------------------- 6. the defender is asked only when there is a choice

def _french_attack(alaska: int, kamchatka: int, blitz: bool = True, **overrides: object) -> Game:
    """french-1976 (the defender chooses, up to 2 dice): red attacks blue's kamchatka from alaska."""
    game = position("french-1976", players=3, owners={"alaska": 0, "kamchatka": 1}, default_owner=2,
                    armies={"alaska": alaska, "kamchatka": kamchatka}, state={"missions": [8, 9, 1]}, **overrides)
    game.apply(Blitz(ALASKA, KAMCHATKA, 1) if blitz else Attack(ALASKA, KAMCHATKA, 3))
    return game


def test_one_army_defends_with_one_die_without_a_question() -> None:
    game = _french_attack(5, 1, blitz=False)
    assert not game.rules.automatic_defence and game.rules.defence_asked_only_on_choice
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 1
    assert all(isinstance(a, Roll) and len(a.defend) == 1 for a in game.legal_actions())


def test_the_defender_with_a_choice_is_asked() -> None:
    game = _french_attack(5, 2, blitz=False)
    assert game.phase is Phase.DEFEND and game.to_move == 1
    assert game.legal_actions() == [Defend(1), Defend(2)]


def test_a_blitz_asks_again_only_when_the_choice_changes() -> None:
    game = _french_attack(10, 4)
    assert game.phase is Phase.DEFEND
    game.apply(Defend(1))
    game.apply(Roll((6, 5, 4), (1,)))        # kamchatka 4 → 3: still 1 or 2 dice, the attacker still 3
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 1
    game.apply(Roll((1, 1, 1), (6,)))        # alaska 10 → 9: the attacker still rolls 3
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 1
    game.apply(Roll((6, 5, 4), (1,)))        # kamchatka 3 → 2: still 1 or 2 dice
    assert game.phase is Phase.ROLL
    game.apply(Roll((6, 5, 4), (1,)))        # kamchatka 2 → 1: one die is the only choice, rolled unasked
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 1


def test_a_blitz_asks_again_when_the_attacker_rolls_fewer_dice() -> None:
    game = _french_attack(4, 5)
    game.apply(Defend(1))
    game.apply(Roll((1, 1, 1), (6,)))        # alaska 4 → 3: the attacker now rolls 2 dice, a new question
    assert game.phase is Phase.DEFEND and game.battle is not None and game.battle.attack_dice == 2
    game.apply(Defend(2))
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 2


def test_a_defender_who_leaves_during_a_blitz_rolls_the_most_dice_from_then_on() -> None:
    game = _french_attack(10, 5)
    game.apply(Defend(1))
    game.apply(Leave(1))
    game.apply(Roll((6, 5, 4), (1,)))
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 2


def test_the_old_rule_asks_at_every_roll_for_logs_saved_before_it() -> None:
    game = _french_attack(5, 1, blitz=False, defence_asked_only_on_choice=False)
    assert game.phase is Phase.DEFEND and game.legal_actions() == [Defend(1)]
    old = ruleset_from_dict({k: v for k, v in game.rules.to_dict().items() if k != "defence_asked_only_on_choice"},
                            "an old log")
    assert old.defence_asked_only_on_choice is False


# ------------------------------------------------ 2. french-1976-duel: a player who leaves plays no neutral step

CENTRAL_AMERICA, WESTERN_US = tid("central_america"), tid("western_us")


def _neutral_border(game: Game) -> list[int]:
    return game.border_territories(NEUTRAL)


def test_the_neutral_reinforcements_of_a_leaver_are_spread_and_the_neutral_turn_is_skipped() -> None:
    # Blue (seat 1) has left; central america could attack red: a neutral turn there would be blue's to play.
    game = duel(Phase.REINFORCE, armies={"central_america": 6}, state={"left": [False, True]})
    assert game.rules.neutral_steps_never_wait and game.neutral_reinforcements() == 2
    before = list(game.armies)
    events = game.apply(EndPhase())
    border = _neutral_border(game)
    assert events == [NeutralReinforcements(1, 2), NeutralStepsEnded(1, False),
                      ArmiesPlaced(NEUTRAL, border[0], 1), ArmiesPlaced(NEUTRAL, border[1], 1),
                      PhaseStarted(0, Phase.ATTACK)]
    assert game.phase is Phase.ATTACK and game.to_move == 0 and game.pool == 0
    assert sum(game.armies) == sum(before) + 2 == game.placed_total - game.lost_total


def test_leaving_while_placing_the_neutral_reinforcements_spreads_the_rest() -> None:
    game = duel(Phase.REINFORCE)
    game.apply(EndPhase())
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.to_move == 1 and game.pool == 2
    game.apply(Place(CENTRAL_AMERICA, 1))
    events = game.apply(Leave(1))
    assert events[:2] == [PlayerLeft(1), NeutralStepsEnded(1, False)]
    assert events[2] == ArmiesPlaced(NEUTRAL, _neutral_border(game)[0], 1)
    assert game.phase is Phase.ATTACK and game.to_move == 0 and game.pool == 0


def test_leaving_during_the_neutral_turn_ends_it() -> None:
    game = duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 6})
    game.apply(Attack(CENTRAL_AMERICA, WESTERN_US, 3))
    assert game.phase is Phase.ROLL and game.in_neutral_step()
    events = game.apply(Leave(1))   # the neutral attack not rolled yet is called off
    assert events == [PlayerLeft(1), NeutralStepsEnded(1, False), PhaseStarted(0, Phase.ATTACK)]
    assert game.phase is Phase.ATTACK and game.battle is None and not game.in_neutral_step()


def test_the_neutral_defence_of_a_leaver_rolls_the_most_dice() -> None:
    game = duel(Phase.ATTACK, armies={"western_us": 5, "central_america": 3}, automatic_defence=False)
    game.apply(Attack(WESTERN_US, CENTRAL_AMERICA, 3))
    assert game.phase is Phase.DEFEND and game.to_move == 1    # blue chooses the neutral army's dice ...
    game.apply(Leave(1))
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 2  # ... until gone
    game.apply(Roll((6, 6, 6), (1, 1)))
    game.apply(Attack(WESTERN_US, CENTRAL_AMERICA, 1))  # nobody is asked from now on
    assert game.phase is Phase.ROLL


def test_the_old_rule_waits_for_a_leaver_in_logs_saved_before_it() -> None:
    game = duel(Phase.REINFORCE, state={"left": [False, True]}, neutral_steps_never_wait=False)
    game.apply(EndPhase())
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.to_move == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_duel_never_waits_for_a_player_who_left(seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(load_ruleset(DUEL), MAP, 2, rng)
    dice, bot = SeededDice(rng=rng), make_bot("greedy", rng)
    gone: int | None = None
    for _ in range(4000):
        if game.over:
            break
        if gone is None and game.turn >= 3 and game.is_legal(Leave(game.opponent())):
            gone = game.opponent()
            game.apply(Leave(gone))
            continue
        if gone is not None:
            assert game.to_move != gone, f"the game waits for {gone} who left, at {game.phase}"
        game.apply(chance_action(game, dice) if game.is_chance() else bot.choose(game))
        assert game.total_armies() == game.placed_total - game.lost_total
    assert gone is not None and game.over and game.winner == 1 - gone
    _header, replayed = parse_log_lines(dump_lines(game), "memory")
    assert replayed.digest() == game.digest()


# ------------------------------------------- 4. the duel's turn clock times the neutral steps and ends them there

def test_a_time_out_in_the_neutral_reinforcement_spreads_it_and_the_current_player_attacks() -> None:
    game = duel(Phase.REINFORCE, turn_time_limit_s=60)
    mine = game.clock_key()
    game.apply(EndPhase())
    assert game.phase is Phase.NEUTRAL_REINFORCE and game.turn_clock_runs()
    assert game.clock_key() != mine and game.clock_key()[3]  # the neutral steps have their own run of the clock
    events = game.apply(TimeOut())
    assert events[0] == NeutralStepsEnded(1, True) and events[-1] == PhaseStarted(0, Phase.ATTACK)
    assert [e for e in events if isinstance(e, ArmiesPlaced)] == [
        ArmiesPlaced(NEUTRAL, t, 1) for t in _neutral_border(game)[:2]]
    assert game.phase is Phase.ATTACK and game.current == 0 and game.pool == 0  # red's turn goes on
    assert not game.left[1] and not game.clock_key()[3]


def test_a_time_out_in_the_neutral_turn_ends_it() -> None:
    game = duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 6}, turn_time_limit_s=60)
    assert game.turn_clock_runs()
    game.apply(Attack(CENTRAL_AMERICA, WESTERN_US, 3))
    with pytest.raises(IllegalActionError, match="waits for the defender's dice, the roll"):
        game.apply(TimeOut())
    game.apply(Roll((1, 1, 1), (6,)))
    assert game.apply(TimeOut()) == [NeutralStepsEnded(1, True), PhaseStarted(0, Phase.ATTACK)]
    assert game.phase is Phase.ATTACK and game.current == 0


def test_a_time_out_at_a_neutral_move_in_keeps_the_minimum_and_ends_the_neutral_turn() -> None:
    game = duel(Phase.NEUTRAL_ATTACK, armies={"central_america": 6}, turn_time_limit_s=60)
    game.apply(Attack(CENTRAL_AMERICA, WESTERN_US, 3))
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.phase is Phase.OCCUPY and game.owner[WESTERN_US] == NEUTRAL
    events = game.apply(TimeOut())
    assert events == [NeutralStepsEnded(1, True), ArmiesMoved(CENTRAL_AMERICA, WESTERN_US, 3),
                      PhaseStarted(0, Phase.ATTACK)]
    assert game.armies[WESTERN_US] == 3 and game.phase is Phase.ATTACK and game.current == 0


def test_without_the_decided_rule_the_neutral_steps_are_not_timed() -> None:
    game = duel(Phase.NEUTRAL_ATTACK, turn_time_limit_s=60, neutral_steps_never_wait=False)
    assert not game.turn_clock_runs() and not game.is_legal(TimeOut())
