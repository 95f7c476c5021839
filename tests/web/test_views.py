"""The views each audience gets: the public one holds no secret; a seat's holds only its own."""

from __future__ import annotations

import json

from conquista.rules.cards import card_symbol
from conquista.rules.events import Phase
from conquista.web.views import SeatState, mission_progress, public_view, seat_view
from tests.rules.helpers import edited, position, tid
from tests.web.helpers import make_board

SYMBOL_WORDS = ("infantry", "cavalry", "cannon", "jolly")


def test_public_view_has_every_territory_and_no_secret() -> None:
    board = make_board()
    board.referee.reset(edited(board.referee.game, hands=[[], [0, 5, 9], []]), 0.0)
    game = board.referee.game
    text = json.dumps(public_view(board.referee.view(), SeatState(), 0.0))
    view = json.loads(text)
    assert [t["id"] for t in view["territories"]] == [game.map.id(t) for t in range(game.map.size)]
    assert view["territories"][0]["armies"] == game.armies[0]
    assert view["seats"][1]["cards"] == 3
    for mission in board.missions():
        assert mission not in text
    assert not any(word in text.lower() for word in SYMBOL_WORDS)
    assert "mission" not in text and "hand" not in text


def test_seat_view_shows_only_its_own_mission_and_cards() -> None:
    board = make_board()
    board.referee.reset(edited(board.referee.game, hands=[[tid("alaska")], [tid("peru"), tid("japan")], []]), 0.0)
    game = board.referee.game
    mine = seat_view(board.referee.view(), 1)
    assert mine["mission"]["text"] == board.missions()[1]
    assert [c["territory"] for c in mine["cards"]] == ["Peru", "Japan"]
    assert mine["cards"][0]["symbol"] == card_symbol(game.map, tid("peru"))
    text = json.dumps(mine)
    assert "Alaska" not in text and board.missions()[0] not in text.replace(board.missions()[1], "")


def test_mission_progress_counts_continents_held() -> None:
    game = position("italian", 2, owners={"congo": 0, "egypt": 0}, phase=Phase.ATTACK,
                    state={"missions": [1, 7]})   # North America and Africa; 24 territories
    progress = mission_progress(game, 0)
    meters = {m["label"]: (m["have"], m["need"]) for m in progress["meters"]}
    assert meters == {"North America": (0, 9), "Africa": (2, 6)}
    other = mission_progress(game, 1)["meters"][0]
    assert (other["have"], other["need"]) == (game.map.size - 2, 24)


def test_counts_for_the_player_to_move() -> None:
    game = position("italian", 2, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 5, "kamchatka": 2},
                    state={"missions": [7, 7]})
    board = make_board()
    board.referee.reset(game, 0.0)
    from conquista.table.gestures import Tap

    board.referee.handle(Tap(tid("alaska")), 1.0)
    board.referee.handle(Tap(tid("kamchatka")), 1.2)
    view = seat_view(board.referee.view(), 0)
    assert view["dice"] == {"attack": 3, "max": 3} and 0 < view["odds"] < 1
    assert seat_view(board.referee.view(), 1)["dice"] is None and seat_view(board.referee.view(), 1)["odds"] is None
    board.referee.handle(Tap(tid("peru")), 1.4)
    assert "not adjacent" in seat_view(board.referee.view(), 0)["refused"]
    assert seat_view(board.referee.view(), 1)["refused"] == ""


def test_forced_trade_only_for_the_player_to_move_holding_too_many_cards() -> None:
    from conquista.rules.rulesets import load_ruleset

    assert load_ruleset("classic").forced_trade_hand == 5
    hand = [tid(n) for n in ("alaska", "northwest_territory", "greenland", "alberta", "ontario")]
    other = [tid(n) for n in ("peru", "brazil", "venezuela", "egypt", "congo")]
    game = position("classic", 2, owners={"alaska": 0}, phase=Phase.REINFORCE, hands={0: hand, 1: other},
                    state={"pool": 3})
    board = make_board()
    board.referee.reset(game, 0.0)
    mine, theirs = seat_view(board.referee.view(), 0), seat_view(board.referee.view(), 1)
    assert mine["forced_trade"] is True and mine["can_trade"] is True
    assert theirs["forced_trade"] is False and theirs["can_trade"] is False
    board.referee.reset(edited(game, hands=[hand[:4], other]), 0.0)   # four cards: no longer forced
    assert seat_view(board.referee.view(), 0)["forced_trade"] is False


def test_sets_give_their_armies_with_the_territory_bonus_for_the_player_to_move() -> None:
    # Italian: one of each is worth 10, and each card of a territory the trader owns adds 2.
    mine = [tid(n) for n in ("alaska", "northwest_territory", "greenland")]          # infantry, cavalry, cannon
    theirs = [tid(n) for n in ("alberta", "ontario", "quebec")]
    game = position("italian", 2, owners={"alaska": 0, "alberta": 1}, phase=Phase.REINFORCE,
                    hands={0: mine, 1: theirs}, state={"pool": 3})
    board = make_board()
    board.referee.reset(game, 0.0)
    sets = seat_view(board.referee.view(), 0)["sets"]
    assert sets == [{"cards": sorted(mine), "kind": "one each", "armies": 12}]       # 10 + Alaska's 2
    # Not their turn: the set's own value (the bonus counts when they trade, on their turn).
    assert seat_view(board.referee.view(), 1)["sets"] == [{"cards": sorted(theirs), "kind": "one each", "armies": 10}]


def test_move_in_range_and_count_after_a_conquest() -> None:
    from conquista.table.gestures import Button, Press, Tap, Turn

    game = position("italian", 2, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 9, "kamchatka": 1},
                    state={"missions": [7, 7]})
    board = make_board()
    board.referee.reset(game, 0.0)
    referee = board.referee
    assert seat_view(referee.view(), 0)["move_in"] is None
    now = 1.0
    referee.handle(Tap(tid("alaska")), now)
    referee.handle(Tap(tid("kamchatka")), now + 0.1)
    while referee.game.phase is Phase.ATTACK:
        now += 1
        referee.handle(Press(Button.ROLL), now)
    assert referee.game.phase is Phase.OCCUPY
    low, high = referee.game.occupy_range()
    view = seat_view(referee.view(), 0)
    assert view["move_in"] == {"count": referee.count, "min": low, "max": high} and low <= referee.count <= high
    assert seat_view(referee.view(), 1)["move_in"] is None
    referee.handle(Turn(1), now + 1)
    assert seat_view(referee.view(), 0)["move_in"]["count"] == min(high, view["move_in"]["count"] + 1)


def test_the_set_up_menu_in_words_on_the_public_and_host_views() -> None:
    from conquista.app.setup import menu_options
    from conquista.table.gestures import Button, Press, Turn
    from conquista.table.setup_menu import SetupMenu
    from conquista.web.views import host_view

    board = make_board()
    referee = board.referee
    assert public_view(referee.view(), SeatState(), 0.0)["menu"] is None
    referee.offer_menu(SetupMenu(menu_options(), rules="italian"))
    for gesture in (Press(Button.ROLL), Press(Button.ROLL), Turn(1), Press(Button.CANCEL)):
        referee.handle(gesture, 1.0)
    public = json.loads(json.dumps(public_view(referee.view(), SeatState(), 0.0)))
    assert public["menu"]["step"] == "seats" and public["menu"]["seats"][1]["bot"] == "normal"
    assert public["pending"] == public["menu"]["text"] and "blue bot" in public["pending"]
    assert public["phase"] == "set-up"
    host = host_view(referee.view(), SeatState(), players=3, paused=False)
    assert host["menu"]["text"] == public["menu"]["text"]


def test_the_selection_is_named_by_map_id_and_never_minus_one() -> None:
    from conquista.table.gestures import Tap

    game = position("italian", 2, owners={"alaska": 0, "kamchatka": 1}, armies={"alaska": 5},
                    state={"missions": [7, 7]})
    board = make_board()
    board.referee.reset(game, 0.0)
    assert public_view(board.referee.view(), SeatState(), 0.0)["selection"] == []
    board.referee.handle(Tap(tid("alaska")), 1.0)
    assert public_view(board.referee.view(), SeatState(), 1.0)["selection"] == ["alaska"]
    board.referee.handle(Tap(tid("kamchatka")), 1.2)
    assert public_view(board.referee.view(), SeatState(), 1.2)["selection"] == ["alaska", "kamchatka"]


def test_power_cards_and_their_trades_on_a_seat_view() -> None:
    """lamorisse-1954's power cards: each card by its figure, the trades an eagle alone (5 armies) and four figures
    (1 army), the best first as ROLL at the board trades it."""
    from conquista.rules import power_cards

    figures = [power_cards.POWER_BASE + f for f in range(4)]             # napoleon, grenadier, hussar, cannon of set 1
    eagle = power_cards.EAGLE_BASE
    game = position("lamorisse-1954", owners={"alaska": 0}, phase=Phase.REINFORCE,
                    hands={0: [*figures, eagle]}, state={"fleets": [0] * 42})
    board = make_board()
    board.referee.reset(game, 0.0)
    view = json.loads(json.dumps(seat_view(board.referee.view(), 0)))
    assert [c["territory"] for c in view["cards"]] == ["Napoleon", "Grenadier", "Hussar", "Cannon", "Eagle"]
    assert view["sets"] == [{"cards": [eagle], "kind": "eagle", "armies": 5},
                            {"cards": figures, "kind": "four figures", "armies": 1}]
    assert view["can_trade"] and view["fleets"] is True


def test_two_games_in_one_process_keep_each_its_own_last_battles_defender() -> None:
    """The last roll's sides come from each referee's own last battle (`Referee.last_battle`): two boards in one
    process (a test run, a host with two tables) conquering in turn each name their own defender, who no longer
    holds the territory."""
    from conquista.table.gestures import Button, Press, Tap
    from conquista.table.wording import owner_name

    boards = []
    for defender in (1, 2):
        game = position("italian", 3, owners={"alaska": 0, "kamchatka": defender, "peru": 2, "brazil": 2},
                        armies={"alaska": 12, "kamchatka": 1}, state={"missions": [7, 7, 7]})
        board = make_board()
        board.referee.reset(game, 0.0)
        boards.append((board.referee, defender))
    now = 1.0
    for referee, _ in boards:   # one conquest after the other, on two tables at once
        referee.handle(Tap(tid("alaska")), now)
        referee.handle(Tap(tid("kamchatka")), now + 0.1)
        while referee.game.phase is Phase.ATTACK:
            now += 1
            referee.handle(Press(Button.ROLL), now)
        assert referee.game.phase is Phase.OCCUPY
    for referee, defender in boards:
        roll = public_view(referee.view(), SeatState(), now)["roll"]
        assert referee.last_battle is not None and referee.last_battle.defender == defender
        assert roll["conquered"] and roll["this_turn"]
        assert roll["attacker"] == owner_name(referee.game, 0)
        assert roll["defender"] == owner_name(referee.game, defender) != owner_name(referee.game, 3 - defender)


def test_seat_views_take_the_hosts_colour_blind_palette_as_the_public_view_does() -> None:
    from conquista.table.colours import Palette, screen_hex, screen_hex_in

    board = make_board()
    game = board.referee.game
    board.referee.palette = Palette.COLOUR_BLIND
    public = public_view(board.referee.view(), SeatState(), 0.0)
    changed = 0
    for seat, colour in enumerate(game.rules.colours[:len(public["seats"])]):
        mine = seat_view(board.referee.view(), seat)
        assert mine["rgb"] == screen_hex_in(colour, Palette.COLOUR_BLIND) == public["seats"][seat]["rgb"]
        changed += mine["rgb"] != screen_hex(colour)
    assert changed, "no seat of this game changes colour in the colour-blind palette: the test shows nothing"
    standard = make_board()     # the standard palette: the screen colours as before
    assert seat_view(standard.referee.view(), 0)["rgb"] == screen_hex(game.rules.colours[0])
