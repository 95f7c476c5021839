"""The simulated board in a terminal: a prompt that takes territory names (English or Italian, with completion
and a did-you-mean) and button names, the board redrawn as simulated time passes so the bots' moves can be
followed one by one, the whole log on demand, scripted sessions and the all-bots demo. Drawing is in board_view.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conquista.errors import ConquistaError
from conquista_sim.names import NameIndex, completer
from conquista_sim.table import BUTTONS, SimulatedTable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.live import Live

# rich, the board's drawing, the luck report and the phones' views are imported where they are used: a script or a
# demo without a terminal prints its first lines without them (issue 22: the first frame first).

# `render` and `NameIndex` lived here before board_view and names split out: callers that import them from here
# keep working.


def __getattr__(name: str) -> Any:
    if name == "render":
        from conquista_sim.board_view import render

        return render
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["COMMANDS", "HELP", "Command", "NameIndex", "TerminalBoard", "demo_lines", "execute", "let_bots_play",
           "names_for", "parse_command", "run_interactive", "run_script"]

HELP = ("commands: a territory name (tap) · long NAME · roll · blitz (hold ROLL) · cancel · next · push (encoder) · "
        "+N / -N (turn the encoder) · off (hold NEXT 5 s: switch off) · leave (hold CANCEL 3 s: leave the game) · "
        "grant (ROLL and NEXT together: the seat a phone asks for) · wait [S] · log [N] · mission · cards · "
        "map (or Enter: redraw) · help · quit")
POWER_HOLD_S = 5.2    # `off`: NEXT held a little past the 5 s that ask to switch the board off
LEAVE_HOLD_S = 3.2    # `leave`: CANCEL held a little past the 3 s that ask whether the player to move leaves
WAIT_MAX_S = 600.0    # `wait` lets at most ten simulated minutes pass: enough for any time-out, and it returns
TURN_MAX = 1000       # `+N`/`-N` turns the encoder at most this many detents: a ruleset's armies are at most 1000
LOG_MAX = 100_000     # `log N` shows at most this many lines
PROMPT = "> "
LOG_SHOWN = 20        # `log` without a count on a screen without a pager
COMMANDS = (*BUTTONS, "long ", "blitz", "push", "off", "leave", "grant", "wait", "log", "mission", "cards", "map",
            "help", "quit")


def names_for(table: SimulatedTable) -> NameIndex:
    return NameIndex(table.game.map, COMMANDS, HELP)


@dataclass
class Command:
    kind: str          # tap, long, press, hold, together, turn, wait, log, secret (mission, cards), map, help, quit
    arg: str = ""
    number: float = 0.0


def _wait_seconds(rest: str) -> float:
    try:
        seconds = float(rest or "1")
    except ValueError:
        raise ConquistaError(f"wait takes seconds, not {rest[:20]!r}") from None
    if not (math.isfinite(seconds) and 0 < seconds <= WAIT_MAX_S):
        raise ConquistaError(f"wait takes more than 0 and at most {WAIT_MAX_S:g} seconds, not {rest[:20]}")
    return seconds


def _digits(text: str, most: int) -> bool:
    """`text` is a whole number 0..most in ASCII digits (int() of thousands of digits raises, of ² too)."""
    return text.isascii() and text.isdigit() and len(text) <= len(str(most)) and int(text) <= most


def parse_command(line: str, names: NameIndex) -> Command:
    words = line.strip().split(maxsplit=1)
    if not words:
        return Command("map")     # an empty Enter redraws the board, as `map` does
    head = words[0].lower()
    rest = words[1].strip() if len(words) > 1 else ""
    if head in ("quit", "exit"):
        return Command("quit")
    if head == "map" and not rest:
        return Command("map")
    if head in ("help", "?"):
        return Command("help")
    if head == "wait":
        return Command("wait", number=_wait_seconds(rest))
    if head in ("mission", "cards") and not rest:
        return Command("secret", head)
    if head == "log":
        if rest and not _digits(rest, LOG_MAX):
            raise ConquistaError(f"log takes a number of lines, not {rest[:20]!r} (at most {LOG_MAX}; log alone "
                                 f"shows all of it)")
        return Command("log", number=int(rest or 0))
    if head[0] in "+-" and head[1:].isdigit():
        if not _digits(head[1:], TURN_MAX):
            raise ConquistaError(f"+N / -N turns the encoder at most {TURN_MAX} detents, not {head[:20]}")
        return Command("turn", number=int(head))
    if head == "blitz":
        return Command("hold", "roll")
    if head == "off" and not rest:
        return Command("hold", "next", POWER_HOLD_S)
    if head == "leave" and not rest:
        return Command("hold", "cancel", LEAVE_HOLD_S)
    if head == "push":
        return Command("press", "encoder")
    if head == "grant" and not rest:
        return Command("together", "roll")
    if head == "hold" and rest.lower() in BUTTONS:
        return Command("hold", rest.lower())
    if head in BUTTONS and not rest:
        return Command("press", head)
    if head == "long" and rest:
        return Command("long", names.resolve(rest))
    if head == "long":
        raise ConquistaError("long takes a territory: `long NAME` presses it long (e.g. long Alaska)")
    return Command("tap", names.resolve(line))


def execute(table: SimulatedTable, command: Command) -> None:
    match command.kind:
        case "tap":
            table.tap(command.arg)
        case "long":
            table.long_press(command.arg)
        case "press":
            table.press(command.arg)
        case "hold":
            if command.number:
                table.hold(command.arg, command.number)
            else:
                table.hold(command.arg)
        case "together":
            table.press_together("roll", "next")
        case "turn":
            table.turn(int(command.number))
        case "wait":
            table.advance(command.number)


def let_bots_play(table: SimulatedTable, max_seconds: float = 600.0,
                  on_step: Callable[[float], None] | None = None) -> None:
    """Advance simulated time while a bot is to move, so the person gets the board back; `on_step(seconds)` is
    called after each bot gesture (the terminal redraws and waits there, so a person can follow)."""
    waited = 0.0
    while (not table.game.over and table.game.to_move in table.bots and waited < max_seconds
           and table.referee.view().menu is None and not table.referee.view().power_off):
        table.advance(table.think_time)
        waited += table.think_time
        if on_step is not None:
            on_step(table.think_time)


def run_script(table: SimulatedTable, lines: Iterable[str], echo: Callable[[str], None]) -> None:
    """Run commands (one per line; # starts a comment) and echo every log line as it happens."""
    names = names_for(table)
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            command = parse_command(line, names)
        except ConquistaError as exc:
            raise ConquistaError(f"script line {number}: {exc}") from None
        if command.kind == "quit":
            break
        if command.kind == "map":
            continue              # a script's output is the log: there is no board to redraw
        if command.kind in ("help", "log", "secret"):
            for text in _said(table, command):   # what the terminal prints for them (issue 39 §10)
                echo(text)
            continue
        execute(table, command)
        message = table.status().message
        if message:
            echo(f"[line {number}: {line}] {message}")
        if table.referee.view().power_off:
            break
        let_bots_play(table)


def _said(table: SimulatedTable, command: Command) -> list[str]:
    """`help`, `log [N]`, `mission` and `cards` in a script: the lines the terminal shows for them."""
    if command.kind == "help":
        return [HELP]
    if command.kind == "log":
        count = int(command.number)
        return list(table.log[-count:] if count else table.log)
    people = [seat for seat in range(table.game.players) if seat not in table.bots]
    return secret_lines(table, people, command.arg)


class TerminalBoard:
    """The interactive board: reads commands, shows each move as it happens at `speed` simulated seconds per real
    second (0: as fast as possible), and redraws the board for the console's size; while the web app serves,
    with its join URL (and the URL's QR code when the terminal has room for it)."""

    def __init__(self, table: SimulatedTable, console: Console, *, speed: float = 2.0,
                 sleep: Callable[[float], None] = time.sleep, join_url: str = "", live: bool = False,
                 as_typed: Callable[[str], str] = str) -> None:
        self.table = table
        # The commands it prints (`conquista sim --resume 1`) as the person can run them from here: the cli knows
        # how the program was started (conquista.cli.program).
        self.as_typed = as_typed
        # Live: the board keeps running while the prompt waits (LiveInput), so a command returns at once and the
        # bots play meanwhile; `follow` prints their moves as the table changes.
        self.live_input = live
        self.console = console
        self.speed = speed
        self.sleep = sleep
        self.join_url = join_url
        self.names = names_for(table)
        self.lines_shown = max(len(table.log) - 1, 0)   # log lines already printed above the board
        self.redraws = 0
        self.live: Live | None = None
        self._last_drawn: tuple[int, str, object] | None = None
        self._people_told = frozenset(self.people)   # the seats typed for when the terminal last said so

    @property
    def people(self) -> list[int]:
        """The seats typed for: every seat no bot plays (the set-up menu or the host's phone may change them)."""
        return [s for s in range(self.table.game.players) if s not in self.table.bots]

    def _drawn(self) -> tuple[int, str, object]:
        """What a drawing of the board shows that can change (drawn again only when it did)."""
        log = self.table.log
        return len(log), log[-1] if log else "", self.table.status()

    def seat_notices(self) -> list[str]:
        """What changed in the seats typed for since the terminal last said (a bot given a seat from the host's
        phone or the menu, a seat given back to a person): said at once, so nobody types for a seat that is no
        longer theirs or looks for a secret the terminal no longer shows."""
        now = frozenset(self.people)
        gone, back = sorted(self._people_told - now), sorted(now - self._people_told)
        self._people_told = now
        colours = self.table.game.rules.colours
        kinds = self.table.bot_kinds
        lines = [f"{colours[s]} is now played by {f'the {kinds[s]} bot' if s in kinds else 'a bot'}: this "
                 f"terminal no longer types for it or shows its mission and cards" for s in gone]
        lines += [f"{colours[s]} is played from this terminal again" for s in back]
        return lines

    def draw(self, again: bool = True) -> None:
        """Draw the board (in place while a Live display runs); `again=False` skips a board already on screen."""
        for notice in self.seat_notices():
            self.console.print(notice, style="yellow")
        shown = self._drawn()
        if not again and shown == self._last_drawn:
            return
        self._last_drawn = shown
        width, height = self.console.size
        from conquista_sim.board_view import render

        board = render(self.table, width, height, self.people, join_url=self.join_url)
        if self.live is not None:
            self.live.update(board, refresh=True)
        else:
            if self.console.is_terminal:   # in place: the old frame's bottom would show above the new one
                self.console.clear()
            self.console.print(board)
        self.redraws += 1

    @contextmanager
    def showing_moves(self) -> Iterator[None]:
        """While time passes: on a terminal the board is redrawn in place and the moves are printed above it."""
        if not self.console.is_terminal:
            yield
            return
        from rich.live import Live

        with Live(console=self.console, auto_refresh=False, transient=False) as live:
            self.live = live
            try:
                yield
            finally:
                self.live = None

    def let_bots_play(self) -> None:
        with self.showing_moves():
            let_bots_play(self.table, on_step=self._bot_step)

    def _bot_step(self, seconds: float) -> None:
        """After each bot gesture: print its new log lines, redraw the board, and give a person time to look."""
        log = self.table.log
        finished = len(log) - 1  # the last line may still grow (see SimulatedTable.flush_lines); the board shows it
        if finished > self.lines_shown:
            for line in log[self.lines_shown:finished]:
                self.console.print(f"» {line}", style="cyan")
            self.lines_shown = finished
            self.draw()
        if self.speed > 0:
            self.sleep(seconds / self.speed)

    def show_log(self, count: int) -> None:
        log = self.table.log
        # Wrapped by rich between words at the console's width (soft wrap left it to the terminal, which cut
        # words in two), and as plain text: a log line is never markup.
        from rich.text import Text

        text = Text("\n".join(log[-count:] if count else log))
        if not count and self.console.is_terminal:
            with self.console.pager():
                self.console.print(text)
        else:
            self.console.print(text)

    def handle(self, line: str) -> bool:
        """One typed line; False when the person quits."""
        try:
            command = parse_command(line, self.names)
        except ConquistaError as exc:
            self.console.print(str(exc), style="yellow")
            return True
        match command.kind:
            case "quit":
                return False
            case "help":
                self.console.print(HELP)
                return True
            case "map":
                self.draw(again=True)
                return True
            case "log":
                self.show_log(int(command.number))
                return True
            case "secret":
                for text in secret_lines(self.table, self.people, command.arg, self.join_url):
                    self.console.print(text)
                return True
        try:
            if command.kind == "wait":
                with self.showing_moves():
                    self._wait(command.number)
            else:
                execute(self.table, command)
        except ConquistaError as exc:  # e.g. a tap typed while the sensors are an external simulated Pico
            self.console.print(str(exc), style="yellow")
            return True
        if not self.live_input:
            self.let_bots_play()
        self.draw(again=command.kind == "wait")
        return True

    def follow(self) -> None:
        """The table changed while nobody typed (live input): print the finished log lines, redraw the board, and
        show the prompt again under it, with what the person had typed so far (the board scrolled it away)."""
        log = self.table.log
        finished = len(log) - 1
        if finished <= self.lines_shown and self._drawn() == self._last_drawn:
            return
        at_prompt = self.console.is_terminal
        if at_prompt:
            self.console.file.write("\r\x1b[K")   # the prompt's line is written over, not left half-way
        if finished > self.lines_shown:
            for line in log[self.lines_shown:finished]:
                self.console.print(f"» {line}", style="cyan")
            self.lines_shown = finished
        self.draw(again=False)
        if at_prompt:
            self.console.file.write(PROMPT + _typed_so_far())
            self.console.file.flush()

    def _wait(self, seconds: float) -> None:
        """Simulated time passes in bot-sized steps, so bots' moves during the wait are shown as they happen."""
        step = self.table.think_time
        left = seconds
        while left > 1e-9 and not self.table.game.over:
            now = min(step, left)
            self.table.advance(now)
            left -= now
            self._bot_step(now)

    def run(self, read: Callable[[str], str] = input) -> None:
        _enable_completion(self.names.completions)
        try:
            if not self.live_input:
                self.let_bots_play()
            self.draw(again=False)
            self.console.print(HELP, style="dim")
            self._prompt_until_quit(read)
        except KeyboardInterrupt:
            # Ctrl-C leaves as `quit` does, saying where the game is; the interruption is then reported as such.
            self.console.print()
            self.say_where_saved()
            raise
        self.say_where_saved()

    def _prompt_until_quit(self, read: Callable[[str], str]) -> None:
        """A game that ends stays on screen: ROLL opens the set-up menu for the next one, as on the board; only
        `quit` (or the end of input) leaves."""
        shown_over = False
        while not self.table.referee.view().power_off:
            if self.table.game.over and not shown_over:
                self.console.print(self.table.status().pending, style="bold")
                from conquista.dice.luck import luck_report

                for text in luck_report(self.table.game).lines():
                    self.console.print(self.as_typed(text))
            shown_over = self.table.game.over
            try:
                line = read(PROMPT)
            except (EOFError, StopIteration):
                break
            if not self.handle(line):
                break

    def say_where_saved(self) -> None:
        """On leaving: where the game is saved and how to go on with it."""
        journal = self.table.journal
        if self.table.referee.view().power_off or journal is None:
            return
        if journal.game_id is None:
            journal.flush()
        if journal.game_id is None:
            self.console.print("the game was not saved (nothing was played yet)", style="dim")
        elif self.table.game.over:
            self.console.print(self.as_typed(f"the game is saved in {journal.path} as game {journal.game_id}; "
                                             f"`conquista replay {journal.game_id}{_where(journal.path)}` shows "
                                             f"it"), soft_wrap=True)
        else:
            self.console.print(self.as_typed(f"the game is saved in {journal.path} as game {journal.game_id}; "
                                             f"`conquista sim --resume {journal.game_id}{_where(journal.path)}` "
                                             f"goes on with it"), soft_wrap=True)   # copied whole


def _where(journal: Path) -> str:
    """The --data-dir a printed command needs to find this journal: none for the default one."""
    from conquista.journal.paths import data_dir_option

    return data_dir_option(journal)


def secret_lines(table: SimulatedTable, people: list[int], what: str, join_url: str = "") -> list[str]:
    """`mission` or `cards` typed at the terminal. With exactly one person playing here (every other seat a bot)
    the secret is theirs alone, so it is shown; with several, it would show to all of them: each has a phone."""
    if not people:
        return [f"no seat is played from this terminal (bots play them all): there is no {what} to show here"]
    if len(people) != 1:
        where = (f"join at {join_url} from your phone" if join_url else
                 "start with --web 0.0.0.0:PORT and join from your phone (docs/playing.md)")
        return [f"several people play at this terminal: each sees their own {what} on their phone ({where})"]
    from conquista.web.views import seat_view

    view = seat_view(table.referee.view(), people[0])
    colour = view["colour"]
    if what == "mission":
        mission = view["mission"]
        if mission is None:
            return [f"{colour}: no secret mission in this ruleset: conquer the world"]
        meters = [f"  {m['label']}: {m['have']}" + (f" of {m['need']}" if m["need"] else "") for m in mission["meters"]]
        return [f"{colour}'s mission: {mission['text']}", *meters]
    cards = [f"  {c['territory']} · {c['symbol']}" for c in view["cards"]] or ["  no cards yet"]
    names = {c["card"]: c["territory"] for c in view["cards"]}
    sets = [f"  {s['kind']}: {', '.join(names.get(c, 'Jolly') for c in s['cards'])} → {s['armies']} armies"
            for s in view["sets"]]
    return [f"{colour}'s cards:", *cards, *(["sets (ROLL in your reinforcement trades the first):", *sets]
                                             if sets else [])]


def _typed_so_far() -> str:
    """The line the person is typing at the prompt (readline's buffer), to show again under a redrawn board."""
    try:
        import readline
    except ImportError:
        return ""
    return readline.get_line_buffer()


def _enable_completion(options: list[str]) -> None:
    try:
        import readline
    except ImportError:  # no readline (e.g. Windows): the prompt works without completion
        return
    readline.set_completer(completer(options))
    readline.set_completer_delims("")
    readline.parse_and_bind("tab: complete")


def run_interactive(table: SimulatedTable, console: Console, read: Callable[[str], str] = input,
                    speed: float = 2.0, sleep: Callable[[float], None] = time.sleep,
                    join_url: str = "", live: bool = False,
                    on_wake: Callable[[Callable[[], None]], None] | None = None,
                    as_typed: Callable[[str], str] = str) -> TerminalBoard:
    """`live`: the board runs while the prompt waits (`read` is wrapped in a LiveInput that redraws the board
    when the table changes); `on_wake(wake)` is handed its wake-up, for the web app's phones to call."""
    board = TerminalBoard(table, console, speed=speed, sleep=sleep, join_url=join_url, live=live,
                          as_typed=as_typed)
    if live:
        from conquista_sim.live import LiveInput

        live_input = LiveInput(table, read, redraw=board.follow, speed=speed)
        if on_wake is not None:
            on_wake(live_input.wake)
        read = live_input
    board.run(read)
    return board


def demo_lines(table: SimulatedTable, max_seconds: float = 100_000.0) -> Iterator[str]:
    """All seats are bots: advance time until the game ends, yielding log lines as they appear."""
    seen = 0
    waited = 0.0
    while not table.game.over and waited < max_seconds:
        table.advance(table.think_time)
        waited += table.think_time
        lines = table.referee.view().log_from(seen)
        for line in lines[:-1]:  # the last line may still grow
            yield line
            seen += 1
    yield from table.referee.view().log_from(seen)
