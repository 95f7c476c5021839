"""`PlaySession`: an evening of `conquista play` on a real board, once its command line is read, in named steps.

1. `open_saved`: the saved game the command line asks about (or, with `--new`, none: the journal opens later);
2. `serve_phones`: the web app's port, bound before the board starts, so a busy one is said first;
3. `run`: the board's first frame, then `start_phones` (the web app, the journal of `--new`, the devices that
   waited, the QR code), then the board's loop until it stops;
4. `close` and `end`: the web app stopped, the journal closed, then the power switched off or the last words said.

What each step opens is a field of the session, so the next step and the end find it there. The game the board
starts with, its bots and its first question come from the command line (`cli/play_cmd.py`), which is the only
part that knows the options; this module is imported only once the devices are open.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from conquista.app.board import BoardDevices, JournalToOpen
from conquista.app.board_loop import BoardInbox
from conquista.app.routing import EffectRouter
from conquista.dice.sources import DiceSource
from conquista.hardware.profile import BoardProfile
from conquista.journal.paths import journal_path
from conquista.rules.engine import Game
from conquista.table.bot_player import BotSeats
from conquista.table.referee import Referee

if TYPE_CHECKING:
    import socket

    from conquista.app.host_setup import HostSetUp
    from conquista.app.setup import NewGameAtBoard
    from conquista.journal import GameJournal, PlayStart
    from conquista.web.companion import Companion
    from conquista.web.service import WebAddress, WebService


class SessionDice(Protocol):
    """The evening's chance source (conquista.cli.table_dice.TableDice): what the session asks of it."""

    journal: GameJournal | None

    @property
    def chance(self) -> DiceSource: ...

    def follow(self, journal: GameJournal) -> None: ...

    def finish(self, over: bool, in_use: object = None) -> None: ...


class Phones:
    """The web app as the command line asked for it: its port bound (`reserved`), how to start it on that port
    (`serve`, given the host's set-up or None), the host's set-up for a journal (None: a game named on the
    command line has no host), and how its address is announced once it serves (the QR code). A plain class, as
    the session: a dataclass costs `play` its first frame's time (tests/cli/test_startup.py)."""

    def __init__(self, reserved: tuple[WebAddress, socket.socket],
                 serve: Callable[[HostSetUp | None], tuple[WebService, Companion]],
                 host_set_up: Callable[[GameJournal], HostSetUp] | None, announce: Callable[[str], None]) -> None:
        self.reserved = reserved
        self.serve = serve
        self.host_set_up = host_set_up
        self.announce = announce


class PlaySession:
    """One evening of `play` (the module's docstring): each step keeps what it opened in a field of its own."""

    def __init__(self, data_dir: str | Path | None, open_journal: Callable[[bool | int | None], PlayStart],
                 dice: SessionDice, profile: BoardProfile, inbox: BoardInbox, devices: BoardDevices) -> None:
        self.data_dir = data_dir
        self.open_journal = open_journal     # the saved games the command line may resume
        self.dice = dice
        self.profile = profile
        self.inbox = inbox
        self.devices = devices
        # Where the referee's effects leave (the journal first); the phones and the set-up menu's game hang on it.
        self.router = EffectRouter()
        self.start: PlayStart | None = None        # the saved game opened by `open_saved` (None: --new)
        self.journal: GameJournal | None = None    # the journal in use, once it is open
        self.menus: list[NewGameAtBoard] = []      # the set-up menu's starters, told the journal of --new
        self.game: Game | None = None              # the game the board starts with (`run`)
        self.bots: BotSeats | None = None
        self.phones: Phones | None = None          # the web app asked for (`serve_phones`)
        self.web: WebService | None = None         # the web app, once it started
        self.companion: Companion | None = None

    # ---------------------------------------------------------------------------------------- the steps

    def open_saved(self, resume: bool | int | None) -> PlayStart | None:
        """Step 1. Without --resume/--new an unfinished game is offered at the board (ROLL resumes it, CANCEL starts
        anew), so the journal decides the first frame and opens now. With --new (`resume` False) nothing saved does:
        the journal (sqlite3, its checks) opens once that frame shows, before the board takes any input."""
        if resume is not False:
            self.start = self.open_journal(resume)
            self.journal = self.start.journal
        self.dice.journal = self.journal
        return self.start

    def serve_phones(self, phones: Phones) -> None:
        """Step 2. The port is taken already (a busy one was an error before the board starts); the web app itself
        starts after the first frame, so the menu or the resumed game is on the board before the web stack is
        even imported."""
        self.phones = phones

    def run(self, game: Game, bots: BotSeats, ask: Callable[[Referee], None], *, sensors_url: str | None,
            physical_dice: bool, first_frame_shown: Callable[[], None] = lambda: None) -> Referee:
        """Step 3. The board plays until it stops or is switched off; the web app and the journal close after.
        `first_frame_shown` runs first thing after the first frame (the command's start-up is over)."""
        from conquista.app.board import run_board  # looked up at the call: tests stand a loop in for it

        self.game, self.bots = game, bots
        later = JournalToOpen(journal_path(self.data_dir), self.journal_now) if self.start is None else None

        def after_first_frame() -> None:
            first_frame_shown()
            self.start_phones(later)

        try:
            return run_board(game, self.profile, self.dice.chance, sensors_url=sensors_url,
                             physical_dice=physical_dice, journal=self.journal, journal_later=later, on_start=ask,
                             on_step=self.phones_step, bots=bots, inbox=self.inbox,
                             after_first_frame=after_first_frame, devices=self.devices,
                             router=self.router)
        finally:
            self.close()

    def journal_now(self) -> GameJournal:
        """The journal, opened now if it waited for the first frame (--new)."""
        if self.journal is not None:
            return self.journal
        assert self.game is not None and self.bots is not None, "the journal opens once the board runs"
        from conquista.bots.roster import seats_of

        journal = self.journal = self.open_journal(False).journal
        # What dealing the game in play would have told a journal open then: its seats, its dice.
        journal.seats, journal.seed = seats_of(self.game.players, self.bots.kinds), None
        self.dice.follow(journal)
        for menu in self.menus:
            menu.journal = journal
        return journal

    def start_phones(self, later: JournalToOpen | None) -> None:
        """After the first frame: the web app, then the journal (--new), the sensors, the buttons and the buzzer
        (gpiozero), then the QR code, so the app serves as soon as it can while a journal or device that fails is
        still said before any address is shown. They wait until the app serves: its imports run in its own thread,
        and sharing the interpreter's lock with them would keep a phone's first page waiting."""
        phones = self.phones
        if phones is None:
            self._open_the_rest(later)
            return
        set_up = None
        if phones.host_set_up is not None:
            assert self.journal is not None, "a hosted game has its journal open from the start"
            set_up = phones.host_set_up(self.journal)
        web, companion = self.web, self.companion = phones.serve(set_up)
        companion.wake = self.inbox.wake
        self.router.add_phones(companion)   # a game started reaches its seats, each command is journalled first
        serving = _serving(web)
        self._open_the_rest(later)
        if serving:
            phones.announce(web.url)

    def _open_the_rest(self, later: JournalToOpen | None) -> None:
        if later is not None:
            later.open()
        self.devices.open_deferred()

    def phones_step(self, referee: Referee, now: float) -> None:
        """On the board's loop after each pass: the phones' commands in, their views out."""
        if self.companion is not None:
            self.companion.step(referee, now)

    # ----------------------------------------------------------------------------------------- the end

    def close(self) -> None:
        """Step 4: the web app stopped, its port closed, the journal closed."""
        if self.web is not None:
            self.web.stop()
        if self.phones is not None:
            self.phones.reserved[1].close()      # the server closed it, or it never started
        if self.journal is not None:
            self.journal.close()

    def end(self, referee: Referee) -> int:
        """The exit status: the board switched off (its shutdown command's), or the last words and 0."""
        table = referee.view()
        if table.power_off:
            # Imported here: its subprocess import waits for the end of the evening, not before the first frame.
            from conquista.app.power import switch_off

            return 0 if switch_off(self.profile.shutdown_command, print) == 0 else 2
        print(table.status.pending)
        self.dice.finish(table.game.over, in_use=table.dice_source)   # the host may have started a committed game
        return 0


def _serving(web: WebService) -> bool:
    """Whether the web app serves; when it cannot, it said why on stderr and the board plays on without phones."""
    from conquista.errors import WebError

    try:
        web.wait_ready()
    except WebError:
        return False
    return True
