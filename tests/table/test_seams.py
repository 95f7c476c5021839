"""Where the table's inputs meet (issue problems 5, 6, 7, 8 and 9 at the referee): faults kept per source, the
encoder after a set-up batch passes, the public board during the menu and after a new game, a resumed game's log,
who acts for the neutral army."""

from __future__ import annotations

from conquista.dice.sources import SeededDice
from conquista.rules.actions import Attack, Place
from conquista.rules.events import Phase
from conquista.table.bot_words import explain
from conquista.table.gestures import Button, Press, Tap, Turn
from conquista.table.inputs import Fault, FaultSource
from conquista.table.referee import Referee
from conquista.web.companion import HostPause, SeatGesture
from conquista.web.views import SeatState, public_view
from tests.rules.helpers import dealt, duel
from tests.web.helpers import make_board, seat_host


def test_a_link_blip_does_not_lift_the_hosts_pause() -> None:
    board = make_board(first_seat_hosts=True)
    seat_host(board, 2)
    referee, game = board.referee, board.referee.game
    board.companion.submit(HostPause(2, True))
    board.step()
    assert referee.fault
    referee.step(Fault(FaultSource.LINK, "sensor link lost: no heartbeat"), board.now)
    referee.step(Fault(FaultSource.LINK, None), board.now)     # the link recovers
    board.step()
    assert referee.fault and "host" in referee.fault           # still paused by the host
    before = len(game.log)
    board.now += 0.1
    referee.handle(Tap(game.owner.index(game.current)), board.now)
    board.companion.submit(SeatGesture(game.current, Tap(game.owner.index(game.current))))
    board.step()
    assert len(game.log) == before
    board.companion.submit(HostPause(2, False))
    board.step()
    assert not referee.fault and not board.companion.paused


def test_the_storage_fault_and_the_link_fault_are_kept_apart() -> None:
    referee = Referee(dealt(seed=3), SeededDice(1))
    referee.step(Fault(FaultSource.STORAGE, "journal not saved: disk full"), referee.now)
    referee.step(Fault(FaultSource.LINK, "sensor link down"), 0.0)
    referee.step(Fault(FaultSource.LINK, None), 0.1)
    assert referee.storage_fault == "journal not saved: disk full" and not referee.fault


def test_the_encoder_places_on_the_new_players_territory_after_a_batch_passes() -> None:
    game = dealt(seed=3)
    referee = Referee(game, SeededDice(1))
    first = game.current
    now = 0.0
    while game.current == first:                                # the first player places the whole batch
        now += 0.1
        mine = game.owner.index(first)
        referee.handle(Tap(mine), now)
        if game.current == first and not game.pool:
            referee.handle(Press(Button.NEXT), now)
    second = game.current
    before = len(game.log)
    now += 0.1
    referee.handle(Turn(1), now)
    assert "not yours" not in referee.message
    assert all(not isinstance(a, Place) or game.owner[a.territory] == second for a in game.log[before:])


def test_the_public_board_is_dark_and_its_clock_still_during_the_set_up_menu() -> None:
    from conquista.app.setup import NewGameAtBoard
    from conquista.bots import make_bot
    from conquista.table.bot_player import BotSeats
    from tests.app.test_setup_menu_app import deal

    board = make_board()
    NewGameAtBoard(deal, BotSeats(make_bot), board.router, rules="italian", players=3).offer(board.referee)
    board.step()
    board.step(30.0)
    view = public_view(board.referee.view(), SeatState(), 30.0)
    assert {t["rgb"] for t in view["territories"]} == {"#000000"}
    latest = board.companion.latest
    assert latest is not None and latest.public_dict()["clock"]["seconds"] == 0


def test_a_new_game_starts_with_an_empty_log_and_dark_dice() -> None:
    game = duel(owners={"argentina": 0}, armies={"argentina": 5, "brazil": 3})
    referee = Referee(game, SeededDice(1))
    s, t = game.map.index("argentina"), game.map.index("brazil")
    referee.apply_action(Attack(s, t, 3), 0.0) if game.owner[t] != 0 else None
    referee.note("an old line")
    referee.reset(dealt(seed=5), 1.0)
    assert referee.log == [] or "an old line" not in referee.log
    assert referee.dice_values() == ((None,) * 3, (None,) * 3)


def test_a_resumed_game_shows_its_recent_log() -> None:
    game = dealt(seed=3)
    first = Referee(game, SeededDice(1))
    for n in range(3):
        first.handle(Tap(game.owner.index(game.current)), 0.1 * n)
    resumed = Referee(dealt(seed=4), SeededDice(1))
    resumed.reset(game, 1.0)
    assert resumed.log and resumed.log[-1] == first.log[-1]


def test_the_log_names_who_acts_for_the_neutral_army() -> None:
    game = duel(Phase.NEUTRAL_ATTACK, armies={"argentina": 6})
    assert game.to_move == 1 and game.current == 0             # blue acts for the neutral army against red
    s, t = game.map.index("argentina"), game.map.index("brazil")
    line = explain(game, Attack(s, t, 3))
    assert line is not None and not line.startswith("red") and "neutral" in line and "blue" in line
