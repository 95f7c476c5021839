"""The one router of the referee's effects (app/routing.py): the journal first, then the shell's decisions, the
phones, the terminal, the buzzer; and no frame or view ever shows an action the journal does not have."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from conquista.app.routing import EffectRouter
from conquista.dice.sources import SeededDice
from conquista.journal import GameJournal
from conquista.rules.actions import Place
from conquista.rules.events import Phase
from conquista.table.effects import ActionApplied, Effect, GameStarted
from conquista.table.gestures import Button, Press, Tap
from conquista.table.questions import QuestionKind, TableQuestion
from conquista.table.referee import Referee
from conquista.web.companion import SeatGesture
from conquista_sim import SimulatedTable
from tests.rules.helpers import dealt, position, tid


class Recorder:
    """Every stop of the router writes what it was handed into one list, so the order shows."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self.route_effects = None

    def follow(self, effects: Iterable[object]) -> None:
        self.seen.extend(("journal", type(e).__name__) for e in effects)

    def route(self, _referee: Referee, effects: list[Effect]) -> None:
        self.seen.extend(("phones", type(e).__name__) for e in effects)

    def update(self, _referee: Referee, _now: float) -> None:
        self.seen.append(("sounds", ""))


def test_the_journal_comes_first_then_decisions_phones_terminal_and_the_buzzer_last() -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 5})
    referee = Referee(game, SeededDice(1))
    rec = Recorder()
    router = EffectRouter(rec, rec)
    router.add_phones(rec)
    assert rec.route_effects == router.route          # a phone's commands are routed here too
    router.on(ActionApplied, lambda _r, e: rec.seen.append(("decision", type(e).__name__)))
    router.listeners.append(lambda _r, effects: rec.seen.extend(("terminal", type(e).__name__) for e in effects))
    referee.handle(Tap(tid("alaska")), 1.0)
    router.route(referee, 1.0)
    assert rec.seen == [("journal", "ActionApplied"), ("decision", "ActionApplied"), ("phones", "ActionApplied"),
                        ("terminal", "ActionApplied"), ("sounds", "")]
    rec.seen.clear()
    router.route(referee, 1.1)                         # nothing new: only the buzzer's tune goes on
    assert rec.seen == [("sounds", "")]


def test_a_decisions_own_effects_are_routed_in_the_same_call_journal_first() -> None:
    referee = Referee(dealt("italian", 3, seed=2), SeededDice(1))
    rec = Recorder()
    router = EffectRouter(rec)
    router.add_phones(rec)
    fresh = dealt("italian", 4, seed=3)

    def start_another(ref: Referee, _effect: ActionApplied) -> None:
        if ref.game is not fresh:
            ref.start(fresh, 2.0, "a new game starts")   # its GameStarted is routed before `route` returns

    router.on(ActionApplied, start_another)
    mine = referee.game.owner.index(referee.game.current)
    referee.handle(Tap(mine), 1.0)
    router.route(referee, 1.0)
    assert rec.seen[:2] == [("journal", "ActionApplied"), ("phones", "ActionApplied")]
    assert ("phones", "GameStarted") in rec.seen and referee.take_effects() == []
    assert rec.seen.index(("journal", "GameStarted")) < rec.seen.index(("phones", "GameStarted"))


def test_no_frame_and_no_phone_view_shows_an_action_the_journal_does_not_have(tmp_path: Path) -> None:
    from conquista.web.companion import Companion, Snapshot
    from conquista.web.seats import SeatBook

    journal = GameJournal(tmp_path)
    with SimulatedTable("italian", 3, seed=4, bots=(1, 2), think_time=0.05, journal=journal) as table:
        journal.start(table.game)   # the deal is written when the first action is
        frames = 0

        def journalled_everything() -> None:
            assert len(journal.row_times()) == len(table.game.log), "shown before it was journalled"

        shown = table.board.strip.show

        def show(frame: bytes | bytearray) -> None:
            nonlocal frames
            journalled_everything()
            frames += 1
            shown(frame)

        table.board.strip.show = show  # type: ignore[method-assign]
        companion = Companion(SeatBook(3))

        def send(item: object) -> None:
            if isinstance(item, Snapshot):
                journalled_everything()

        companion.send = send
        table.add_phones(companion)
        seat = table.game.current
        for territory in [t for t in range(table.game.map.size) if table.game.owner[t] == seat][:3]:
            companion.submit(SeatGesture(seat, Tap(territory)))      # a phone's taps (its seat is to move)
            table.refresh()
        table.tap(table.game.map.id(table.game.owner.index(seat)))   # a tap at the board
        table.advance(20.0)                                          # the bots' turns
        assert frames > 10 and len(table.game.log) >= 5   # the phone's taps, the board's, the bots'
        journal.flush()
        assert len(journal.row_times()) == len(table.game.log)
    journal.close()


def test_game_started_reaches_every_phone_once_through_the_router() -> None:
    from conquista.web.companion import Companion
    from conquista.web.seats import SeatBook

    with SimulatedTable("italian", 3, seed=4) as table:
        phones = [Companion(SeatBook(3)), Companion(SeatBook(3))]
        for companion in phones:
            table.add_phones(companion)
        table.referee.start(dealt("italian", 4, seed=1), table.clock.now(), "a new game starts", bots={3: "greedy"})
        table.refresh()
        assert [(c.seats.players, c.seats.bots, c.bot_kinds) for c in phones] == [
            (4, frozenset({3}), {3: "greedy"})] * 2


def test_an_action_already_written_when_the_journal_started_is_not_written_again(tmp_path: Path) -> None:
    game = position("italian", owners={"alaska": 0, "alberta": 0}, phase=Phase.REINFORCE, state={"pool": 5})
    referee = Referee(game, SeededDice(1))
    journal = GameJournal(tmp_path)
    referee.handle(Tap(tid("alaska")), 1.0)            # applied before the journal follows the game
    journal.attach(referee)                            # ... so it is written now, from the game's log
    rows = len(journal.row_times())
    journal.follow(referee.take_effects())             # its effect, routed later, finds it written
    assert len(journal.row_times()) == rows == len(referee.game.log)
    referee.handle(Tap(tid("alberta")), 2.0)
    journal.follow(referee.take_effects())
    assert len(journal.row_times()) == len(referee.game.log) and referee.game.log[-1] == Place(tid("alberta"), 1)
    journal.close()


def test_game_started_is_an_effect_of_start() -> None:
    referee = Referee(dealt("italian", 3, seed=2), SeededDice(1))
    referee.start(dealt("italian", 3, seed=5), 1.0, "a new game starts", bots={2: "greedy"})
    assert GameStarted(3, {2: "greedy"}) in referee.take_effects()


def test_the_referee_and_its_modes_hold_no_callable_of_the_app(tmp_path: Path) -> None:
    """The shell's decisions hang on the router; the referee keeps only data (what the app offers, as booleans)."""
    import types

    from conquista.app.setup import NewGameAtBoard
    from tests.app.test_setup_menu_app import deal

    def callables(obj: object) -> list[str]:
        return [name for name, value in vars(obj).items()
                if isinstance(value, types.FunctionType | types.MethodType | types.LambdaType)]

    journal = GameJournal(tmp_path)
    with SimulatedTable("italian", 3, seed=4, bots=(1,), journal=journal) as table:
        referee = table.referee
        at_board = NewGameAtBoard(deal, table.bot_seats, table.router, journal=journal)
        at_board.offer_after_game(referee, lambda: None)
        assert referee.bots_available and referee.new_game_offered and callables(referee) == []
        at_board.offer(referee)
        assert referee.asked is not None and callables(referee.asked) == []
        referee.asked = None   # the menu put away
        referee.ask(TableQuestion(QuestionKind.RESUME, "resume?", subject=1))
        assert referee.asked is not None and callables(referee.asked) == []
    journal.close()


class Piezo:
    def __init__(self) -> None:
        self.playing: float | None = None

    def play(self, frequency: float) -> None:
        self.playing = frequency

    def stop(self) -> None:
        self.playing = None


def test_the_buzzer_looks_at_the_table_only_when_its_version_moved() -> None:
    from conquista.app.sounds import CuePlayer
    from conquista.table.buzzer_cues import TUNES, Cue

    referee = Referee(dealt("italian", 3, seed=2), SeededDice(1))
    piezo = Piezo()
    sounds = CuePlayer(piezo)  # type: ignore[arg-type]
    sounds.update(referee, 0.0)
    referee.refused_at = 1.0          # changed behind the referee's back: no version moved, so no cue
    sounds.update(referee, 1.0)
    assert piezo.playing is None
    referee.step(Press(Button.NEXT), 2.0)   # refused (the deal's armies first): the version moves, its cue plays
    sounds.update(referee, 2.0)
    assert piezo.playing == TUNES[Cue.REFUSED][0][0]
    sounds.update(referee, 5.0)       # the tune goes on with time alone, and ends
    assert piezo.playing is None
