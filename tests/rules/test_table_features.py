"""RULES.md §5, the networked table's rules in the engine: a player who leaves (`Leave`) and a turn whose time ran
out (`TimeOut`). Worked scenarios, each parameter both ways; replay and undo reproduce both exactly."""

from __future__ import annotations

import pytest

from conquista.errors import IllegalActionError
from conquista.rules.actions import Attack, Blitz, Defend, EndPhase, Leave, Occupy, Roll, TimeOut
from conquista.rules.engine import Game
from conquista.rules.events import ArmiesPlaced, GameOver, Phase, PlayerEliminated, PlayerLeft, TurnTimedOut
from conquista.rules.serialize import decode_action, encode_action
from tests.rules.helpers import MAP, dealt, position, tid


def _replayed(game: Game) -> Game:
    fresh = Game(game.rules, game.map, game.players, game.log[0])  # type: ignore[arg-type]
    for action in game.log[1:]:
        fresh.apply(decode_action(encode_action(action, MAP), MAP))
    return fresh


# ------------------------------------------------------------------------------------------------- leaving

def test_a_player_leaves_on_another_players_turn_and_is_skipped() -> None:
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 3})
    events = game.apply(Leave(1))
    assert events == [PlayerLeft(1)] and game.left == [False, True, False]
    assert game.phase is Phase.ATTACK and game.current == 0     # red's turn goes on
    game.apply(EndPhase())
    game.apply(EndPhase())
    assert game.current == 2                                     # blue is skipped


def test_leaving_on_ones_own_turn_spreads_the_pool_and_passes_the_turn() -> None:
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2, "alberta": 0},
                    phase=Phase.REINFORCE, state={"pool": 5})
    events = game.apply(Leave(0))
    placed = [(e.territory, e.count) for e in events if isinstance(e, ArmiesPlaced)]
    # Both of red's territories border another owner's: 5 armies round-robin in map order, 3 then 2.
    assert placed == [(tid("alaska"), 3), (tid("alberta"), 2)]
    assert game.current == 1 and game.phase is Phase.REINFORCE and game.pool == game.reinforcements_for(1)
    assert game.total_armies() == game.placed_total - game.lost_total


@pytest.mark.parametrize("rules", ["classic", "french-1976"])
def test_a_leaver_defends_by_itself_with_the_most_dice_even_under_manual_defence(rules: str) -> None:
    game = position(rules, players=3, owners={"alaska": 0, "kamchatka": 2, "alberta": 0},
                    armies={"alaska": 5, "alberta": 5, "kamchatka": 4, "northwest_territory": 4})
    game.apply(Leave(1))
    game.apply(Attack(tid("alberta"), tid("northwest_territory"), 3))   # blue, who left: no choice asked
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 2
    game.apply(Roll((1, 1, 1), (6, 6)))
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))              # yellow, still playing, chooses
    assert game.phase is Phase.DEFEND and game.to_move == 2


def test_a_leaver_defends_every_roll_of_a_blitz() -> None:
    game = position("classic", players=3, owners={"alberta": 0, "kamchatka": 2},
                    armies={"alberta": 9, "northwest_territory": 6})
    game.apply(Leave(1))
    game.apply(Blitz(tid("alberta"), tid("northwest_territory"), 1))
    while game.phase is Phase.ROLL:
        assert game.battle is not None
        game.apply(Roll((1,) * game.battle.attack_dice, (6,) * game.battle.defend_dice))
    assert game.phase is Phase.ATTACK and game.armies[tid("alberta")] == 1


def test_leaving_while_choosing_defence_dice_defends_with_the_most() -> None:
    game = position("classic", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5, "kamchatka": 4})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    assert game.phase is Phase.DEFEND
    game.apply(Leave(2))
    assert game.phase is Phase.ROLL and game.battle is not None and game.battle.defend_dice == 2


def test_a_leaver_is_eliminated_normally_and_the_conqueror_takes_the_cards() -> None:
    cards = [t.index for t in MAP.territories if t.card == "cannon"][:2]
    game = position("classic", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5},
                    default_owner=0, hands={2: cards}, automatic_defence=False)
    game.apply(Leave(2))
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert PlayerEliminated(2, 0, 2) in events and sorted(game.hands[0]) == sorted(cards)
    assert game.eliminated[2] and game.left[2]


def test_a_mission_aimed_at_a_leaver_still_counts() -> None:
    # Red must destroy yellow (mission 11, colour 3); yellow left; red beats yellow's last territory and wins.
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2}, armies={"alaska": 5},
                    state={"missions": [11, 8, 7]})
    game.apply(Leave(2))
    events = game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    events = game.apply(Roll((6, 6, 6), (1,)))
    assert GameOver(0, "mission 11") in events and game.winner == 0


@pytest.mark.parametrize("left", [False, True])
def test_a_leaver_never_wins_a_mission_completed_out_of_turn(left: bool) -> None:
    # Blue must destroy yellow and holds 39 territories; red beats yellow: blue's mission turns into 24
    # territories, which blue holds. Blue wins at once, unless blue has left the game.
    game = position("italian", players=3, owners={"alaska": 0, "northwest_territory": 0, "kamchatka": 2},
                    armies={"alaska": 5}, default_owner=1, state={"missions": [8, 11, 7], "left": [False, left, False]})
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.over is not left and game.winner == (None if left else 1)


def test_leaving_is_refused_when_the_ruleset_says_so_and_where_it_makes_no_sense() -> None:
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2}, players_may_leave=False)
    with pytest.raises(IllegalActionError, match="players may not leave in italian"):
        game.apply(Leave(1))
    game = position("italian", players=3, owners={"alaska": 0, "kamchatka": 2})
    for seat, why in ((3, "not a seat of 3"), (True, "not a seat of 3")):
        with pytest.raises(IllegalActionError, match=why):
            game.apply(Leave(seat))  # type: ignore[arg-type]
    game.apply(Leave(1))
    with pytest.raises(IllegalActionError, match="blue is no longer playing"):
        game.apply(Leave(1))
    game.apply(Leave(2))
    with pytest.raises(IllegalActionError, match="the last player still playing cannot leave"):
        game.apply(Leave(0))
    with pytest.raises(IllegalActionError, match="once the initial placement is over"):
        dealt("italian", 3).apply(Leave(1))


def test_legal_actions_never_list_the_table_events() -> None:
    game = position("italian", players=3, owners={"alaska": 0}, armies={"alaska": 3}, turn_time_limit_s=60)
    assert game.is_legal(Leave(1)) and game.is_legal(TimeOut())
    assert not any(isinstance(a, Leave | TimeOut) for a in game.legal_actions())


# ------------------------------------------------------------------------------------------------ time-outs

def test_a_time_out_spreads_the_reinforcements_over_the_border_round_robin() -> None:
    # Red holds all of South America; only venezuela and brazil border another owner's territories.
    south = ["venezuela", "peru", "brazil", "argentina"]
    game = position("italian", players=2, owners={t: 0 for t in south}, phase=Phase.REINFORCE,
                    state={"pool": 5}, turn_time_limit_s=90)
    events = game.apply(TimeOut())
    assert events[0] == TurnTimedOut(0)
    placed = [(MAP.id(e.territory), e.count) for e in events if isinstance(e, ArmiesPlaced)]
    border = [MAP.id(t) for t in game.border_territories(0)]
    assert border == sorted(border, key=MAP.index) and "argentina" not in border and "peru" not in border
    assert placed == [(border[0], 3), (border[1], 2)]
    assert game.current == 1 and game.phase is Phase.REINFORCE


def test_a_time_out_at_the_move_in_keeps_the_minimum_and_draws_the_card() -> None:
    game = position("italian", players=2, owners={"alaska": 0}, armies={"alaska": 6}, turn_time_limit_s=90)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    game.apply(Roll((6, 6, 6), (1,)))
    assert game.phase is Phase.OCCUPY
    game.apply(TimeOut())
    assert game.armies[tid("kamchatka")] == 3 and game.armies[tid("alaska")] == 3
    assert game.phase is Phase.DRAW       # a conquest this turn: the card is still drawn, then the turn passes


def test_a_time_out_in_a_setup_batch_places_it_and_the_next_seat_places() -> None:
    game = dealt("italian", 3, turn_time_limit_s=30)
    assert game.phase is Phase.SETUP and game.pool == 3
    first = game.current
    events = game.apply(TimeOut())
    assert sum(e.count for e in events if isinstance(e, ArmiesPlaced)) == 3
    assert game.current == (first + 1) % 3 and game.phase is Phase.SETUP


def test_a_time_out_is_refused_without_a_limit_and_while_dice_are_awaited() -> None:
    game = position("classic", players=2, owners={"alaska": 0}, armies={"alaska": 5})
    with pytest.raises(IllegalActionError, match="classic has no turn time limit"):
        game.apply(TimeOut())
    game = position("classic", players=2, owners={"alaska": 0}, armies={"alaska": 5, "kamchatka": 4},
                    turn_time_limit_s=60)
    game.apply(Attack(tid("alaska"), tid("kamchatka"), 3))
    with pytest.raises(IllegalActionError, match="waits for the defender's dice"):
        game.apply(TimeOut())
    game.apply(Defend(2))
    game.apply(Roll((1, 1, 1), (6, 6)))
    game.apply(TimeOut())
    assert game.current == 1


def test_leave_and_time_out_replay_and_undo_exactly() -> None:
    game = dealt("italian", 3, seed=4, turn_time_limit_s=45)
    before = game.digest()
    game.apply(TimeOut())
    while game.phase is Phase.SETUP:
        game.apply(TimeOut())
    game.apply(Leave(2 if game.current != 2 else 1))
    game.apply(TimeOut())
    assert _replayed(game).digest() == game.digest()
    while len(game.log) > 1:
        game.undo()
    assert game.digest() == before and not any(game.left)


def test_the_digest_of_a_game_nobody_left_has_no_left_key() -> None:
    game = dealt("italian", 3)
    assert "left" not in game._canonical()
    snap = game.snapshot()
    del snap["left"]                      # a snapshot made before players could leave still loads
    assert Game.from_snapshot(snap, game.rules, game.map).left == [False, False, False]


def test_actions_encode_and_decode() -> None:
    for action in (Leave(2), TimeOut()):
        assert decode_action(encode_action(action, MAP), MAP) == action
    assert encode_action(Leave(1), MAP) == {"type": "leave", "seat": 1}
    assert Occupy(1) != TimeOut()


# ------------------------------------------------------------------------------------------------ properties

@pytest.mark.parametrize(("rules", "players", "seed"), [("italian", 3, 1), ("italian", 5, 2), ("classic", 4, 3),
                                                        ("french-1976", 3, 4)])
def test_games_with_leavers_and_time_outs_keep_every_invariant_and_replay(rules: str, players: int,
                                                                         seed: int) -> None:
    import random

    from conquista.bots import make_bot
    from conquista.dice.chance import chance_action, new_game
    from conquista.dice.sources import SeededDice
    from conquista.rules.gamelog import dump_lines, parse_log_lines
    from conquista.rules.rulesets import load_ruleset

    rng = random.Random(seed)
    game = new_game(load_ruleset(rules, {"turn_time_limit_s": 60}), MAP, players, rng)
    dice, bot = SeededDice(rng=rng), make_bot("greedy", rng)
    start = game.digest()
    for _ in range(3000):
        if game.over:
            break
        if game.is_chance():
            action = chance_action(game, dice)
        elif rng.random() < 0.03 and game.is_legal(TimeOut()):
            action = TimeOut()
        elif rng.random() < 0.01 and game.is_legal(leave := Leave(rng.randrange(players))):
            action = leave
        else:
            action = bot.choose(game)
        game.apply(action)
        assert game.total_armies() == game.placed_total - game.lost_total
        assert all(a >= 1 for a in game.armies)
        assert game.over or game.legal_actions()
        assert game.winner is None or not game.left[game.winner]
    assert any(isinstance(a, TimeOut) for a in game.log)
    _header, replayed = parse_log_lines(dump_lines(game), "memory")
    assert replayed.digest() == game.digest()
    while len(game.log) > 1:
        game.undo()
    assert game.digest() == start
