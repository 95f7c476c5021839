"""The board drawn in a terminal (rich), laid out for the terminal's size.

* wide (133+ columns): every territory under its full name, on two lines, with its armies;
* compact (80+ columns, the classic 80×24): a three-letter code per territory (names.CODES, also typeable);
* smaller than 80×24: the compact layout with a line saying the terminal is too small and what it needs.
A map without the classic grid is drawn one continent per line. Under the map: a legend (your colour, the bots,
what the ring shows; in a replay, which nobody at the screen plays, each seat by its colour and what played it),
the dice panel and the ring, the status, and the latest lines of the log.
While the web app serves, the join URL is on the last line, and its QR code (half blocks, about 30×15) beside
the map, or under the board, when the terminal has the room; otherwise only the URL, which is always typeable.
"""

from __future__ import annotations

import functools
import io
import textwrap
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from conquista.bots.roster import HUMAN
from conquista.rules.choices import DealKind
from conquista.table.colours import NEUTRAL, mark, player_rgb, screen_rgb
from conquista.table.referee import Status
from conquista.table.referee_records import MessageKind
from conquista.table.tournament_clock import stage_words
from conquista.table.wording import NEUTRAL_NAME, owner_name, percent, phase_words
from conquista_sim.names import CODES
from conquista_sim.player_lines import player_lines
from conquista_sim.table import SimulatedTable

# Where each territory of the classic map sits on a grid of cells (row, column), roughly as on the printed board.
CLASSIC_GRID: dict[str, tuple[int, int]] = {
    "alaska": (1, 0), "northwest_territory": (1, 1), "greenland": (0, 3), "alberta": (2, 1), "ontario": (2, 2),
    "quebec": (2, 3), "western_us": (3, 1), "eastern_us": (3, 2), "central_america": (4, 1),
    "venezuela": (5, 2), "peru": (6, 2), "brazil": (6, 3), "argentina": (7, 2),
    "iceland": (1, 4), "scandinavia": (1, 5), "great_britain": (2, 4), "northern_europe": (2, 5),
    "ukraine": (2, 6), "western_europe": (3, 4), "southern_europe": (3, 5),
    "north_africa": (5, 4), "egypt": (5, 5), "congo": (6, 4), "east_africa": (6, 5), "south_africa": (7, 4),
    "madagascar": (7, 5),
    "ural": (1, 7), "siberia": (1, 8), "yakutsk": (0, 9), "kamchatka": (0, 10), "irkutsk": (1, 9),
    "mongolia": (2, 9), "japan": (2, 10), "afghanistan": (2, 7), "china": (3, 8), "middle_east": (4, 6),
    "india": (4, 7), "siam": (4, 8),
    "indonesia": (6, 8), "new_guinea": (6, 9), "western_australia": (7, 8), "eastern_australia": (7, 9),
}
GRID_ROWS, GRID_COLUMNS = 8, 11
SHORT_CONTINENTS = {"north_america": "N.Am", "south_america": "S.Am", "africa": "Afr", "europe": "Eur",
                    "asia": "Asia", "oceania": "Oce"}
# Names that do not wrap into a 12-column cell (11 letters, and 8 beside the count), split by hand.
WIDE_LABELS: dict[str, tuple[str, str]] = {
    "northwest_territory": ("N.W.", "Territory"), "western_us": ("Western", "U.S."), "eastern_us": ("Eastern", "U.S."),
    "siam": ("Siam", ""),
}


@dataclass(frozen=True)
class Layout:
    name: str          # "wide" or "compact"
    cell: int          # columns per territory
    lines: int         # lines per territory
    log_lines: int
    too_small: str = ""


WIDE = Layout("wide", 12, 2, 8)
COMPACT = Layout("compact", 7, 1, 5)
WIDE_MIN = (GRID_COLUMNS * WIDE.cell + 2, 36)        # 134×36: the map, its frame, legend, panel, status, log
COMPACT_MIN = (80, 24)
_BOARD_SIZES: dict[tuple[str, str, int], tuple[int, int]] = {}
PROMPT_LINES = 2      # under the board: the prompt and the line typed, which must not scroll the board away


def choose_layout(width: int, height: int) -> Layout:
    if width >= WIDE_MIN[0] and height >= WIDE_MIN[1]:
        return WIDE
    if width >= COMPACT_MIN[0] and height >= COMPACT_MIN[1]:
        return COMPACT
    return Layout("compact", COMPACT.cell, 1, 3, too_small=(
        f"this terminal is {width}×{height}: the board needs at least {COMPACT_MIN[0]}×{COMPACT_MIN[1]} "
        f"({WIDE_MIN[0]}×{WIDE_MIN[1]} shows full names); enlarge the window"))


def wide_label(tid: str, name: str) -> tuple[str, str]:
    """A territory's full name on two lines: up to 11 letters, then up to 8 beside the count."""
    if tid in WIDE_LABELS:
        return WIDE_LABELS[tid]
    lines = textwrap.wrap(name, 11)
    if len(lines) == 1:
        return lines[0], ""
    return lines[0], " ".join(lines[1:])


def _style(table: SimulatedTable, tid: str) -> str:
    """A cell in its LED's colour, as the board shows it; a seat's steady colour as screens draw it (sRGB: the LED
    bytes of "yellow" would read orange on a terminal)."""
    led = table.led(tid)
    game = table.game
    on_screen = {player_rgb(c, table.referee.view().palette): screen_rgb(c) for c in game.rules.colours[: game.players]}
    on_screen[NEUTRAL] = screen_rgb(NEUTRAL_NAME)
    r, g, b = on_screen.get(led, led)
    dark = r * 0.3 + g * 0.59 + b * 0.11 < 110
    return f"{'white' if dark else 'black'} on rgb({r},{g},{b})"


def units_label(table: SimulatedTable, t: int) -> str:
    """A territory's units: its armies ("3"); with fleets (lamorisse-1954) also its fleets, "3+2f" (3 armies and
    2 fleets) or "2f" (fleets only); "·" for a territory not dealt yet."""
    game = table.game
    armies = game.armies[t]
    fleets = game.fleets[t] if game.rules.fleets else 0
    if game.owner[t] < 0:
        return "·"   # not dealt yet (lamorisse-1954's progressive deal)
    if not fleets:
        return str(armies)
    return f"{armies - fleets}+{fleets}f" if armies > fleets else f"{fleets}f"


def _fit(name: str, label: str, width: int) -> str:
    """`name` and `label` in a cell `width` wide, always ending in a space (the cells of a row never run into each
    other): a count of up to 3 characters right-aligned before it; a longer label ("R12+3f") after the name and a
    space; when both do not fit, the name's end gives way (then the space between them, on a cell too narrow for
    any)."""
    if len(label) <= 3:
        return f"{name:<{width - 4}}{label:>3} "
    if len(name) + len(label) + 2 <= width:
        return f"{name:<{width - len(label) - 1}}{label} "
    room = width - len(label) - 2
    if room >= 1:
        return f"{name[:room]} {label} "
    return f"{name[:max(0, width - len(label) - 1)]}{label} "[-width:]


def _fits_beside(name: str, label: str, width: int) -> bool:
    return (len(label) <= 3 and len(name) <= width - 4) or len(name) + len(label) + 2 <= width


def marked_units(table: SimulatedTable, t: int) -> str:
    """The units with the owner's letter before them ("R3"), so colour is never the only sign of the owner. Nothing
    while the set-up menu shows: the game then is a stand-in, and the board's map stays dark."""
    if table.referee.view().menu is not None:
        return ""
    owner = table.game.owner[t]
    label = units_label(table, t)
    return label if owner < 0 else mark(owner_name(table.game, owner)) + label


def _cell_lines(table: SimulatedTable, tid: str, layout: Layout) -> list[Text]:
    game = table.game
    t = game.map.index(tid)
    label = marked_units(table, t)
    style = _style(table, tid)
    if layout.lines == 1:
        code = CODES.get(tid, game.map.territories[t].name_en[:3].upper())
        return [Text(_fit(code, label, layout.cell), style=style)]
    first, second = wide_label(tid, game.map.territories[t].name_en)
    # The count goes beside the shorter line, or beside the first when only there it fits whole ("Great R1+2f").
    beside_first = not _fits_beside(second, label, layout.cell) and _fits_beside(first, label, layout.cell)
    if len(second) > 8 or beside_first:
        return [Text(_fit(first, label, layout.cell), style=style), Text(f"{second:<11} ", style=style)]
    return [Text(f"{first:<11} ", style=style), Text(_fit(second, label, layout.cell), style=style)]


def render_map(table: SimulatedTable, layout: Layout, width: int = 0) -> Text:
    game_map = table.game.map
    out = Text()
    if not all(t.id in CLASSIC_GRID for t in game_map.territories):  # a board builder's own map
        for continent in game_map.continents:
            out.append(f"{continent.name_en[:14]:<15}")
            for t in continent.territories:
                name = game_map.territories[t].name_en
                out.append(f" {name} {marked_units(table, t)} ", style=_style(table, game_map.id(t)))
                out.append(" ")
            out.append("\n")
        return out
    if width and width < GRID_COLUMNS * layout.cell + 2:   # the grid's rows would wrap into each other
        return _continent_lines(table, width)
    if layout.lines == 1 and not all(_fits_beside(CODES[tid], marked_units(table, game_map.index(tid)), layout.cell)
                                     for tid in CLASSIC_GRID):
        # A label too long for a compact cell ("Y1+1f" with lamorisse-1954's fleets) would cut the territory's
        # code to a letter: the territories go by continent instead, wrapped between them, never cut.
        return _continent_lines(table, width or COMPACT_MIN[0])
    at = {pos: tid for tid, pos in CLASSIC_GRID.items()}
    for r in range(GRID_ROWS):
        for line in range(layout.lines):
            for c in range(GRID_COLUMNS):
                tid = at.get((r, c))
                out.append_text(_cell_lines(table, tid, layout)[line] if tid else Text(" " * layout.cell))
            out.append("\n")
    out.rstrip()
    return out


def _continent_lines(table: SimulatedTable, width: int) -> Text:
    """The classic map on a terminal too narrow for its grid: each continent's territories by their codes after
    its name, wrapped between territories (never inside one) at `width`."""
    game_map = table.game.map
    indent = 5
    room = max(width - 4, indent + 12)   # the panel's frame and padding
    out = Text()
    for continent in game_map.continents:
        out.append(f"{SHORT_CONTINENTS.get(continent.id, continent.name_en)[:indent - 1]:<{indent}}")
        line = indent
        for t in continent.territories:
            tid = game_map.id(t)
            cell = f" {CODES[tid]} {marked_units(table, t)} "   # the owner's letter too: not by colour only
            if line + len(cell) + 1 > room and line > indent:
                out.append("\n" + " " * indent)
                line = indent
            out.append(cell, style=_style(table, tid))
            out.append(" ")
            line += len(cell) + 1
        out.append("\n")
    out.rstrip()
    return out


def seat_kind(kind: str | None) -> str:
    """What played a seat, as a replay's legend says it: from the journal's "human" or a bot's kind."""
    if kind is None:
        return ""
    return " (person)" if kind == HUMAN else f" ({kind} bot)"


def legend(table: SimulatedTable, people: Collection[int], replay_seats: Sequence[str | None] | None = None) -> Text:
    """Who is who, and what the ring says. With `replay_seats` (a replay: nobody at this screen plays it) each seat
    is named by its colour and what played it, as the journal saved it (None: not known), and nobody is "you"."""
    colours = table.game.rules.colours[: table.game.players]
    out = Text()
    if table.referee.view().menu is not None and not table.referee.view().power_question:
        # The stand-in game's seats are not the players': the menu chooses them (and the map stays dark).
        out.append("the set-up menu chooses the game: the rules, the players, who is a bot")
        out.append("\nring: the set-up menu · turn (+N / -N) to choose · roll confirms · next goes back · "
                   "cancel switches a seat between a person and a bot")
        return out
    if replay_seats is None:
        you = [colours[s] for s in sorted(people)]
        out.append("you: " + (", ".join(you) if you else "nobody (bots only)"))
        bots = [colours[s] for s in sorted(table.bots)]
        out.append(" · bots: " + (", ".join(bots) if bots else "none") + " · ")
    out.append("seats: ")
    for seat, colour in enumerate(colours):
        r, g, b = screen_rgb(colour)
        out.append(f"■{mark(colour)} ", style=f"bold rgb({r},{g},{b})")
        kind = seat_kind(replay_seats[seat]) if replay_seats is not None and seat < len(replay_seats) else ""
        gone = " (left: defends only)" if table.game.left[seat] and not table.game.eliminated[seat] else ""
        out.append(f"{colour}{kind}{gone}{' ' if seat < len(colours) - 1 else ''}")
    if table.game.neutral is not None:  # the duel's third army, which the current player's opponent commands
        out.append(f" ■{mark(NEUTRAL_NAME)} ", style="bold rgb({},{},{})".format(*screen_rgb(NEUTRAL_NAME)))
        out.append(NEUTRAL_NAME)
    if table.referee.view().power_question:
        out.append("\nring: switch the board off? · ROLL: yes · any other key: no")
    elif table.referee.view().prompt:
        out.append("\nring: a question · green half: ROLL answers yes · red half: CANCEL answers no")
    elif table.referee.view().fault:
        out.append("\nring: blinking, the board is paused until the fault in the status is fixed")
    else:
        out.append("\nring: who acts · lit LEDs: armies to place or to move · a bright third: the phase · "
                   "blinking mint end: a set to trade · lit arcs: the number of dice")
    commitment = dice_commitment(table.referee.view().dice_source)
    if commitment is not None and replay_seats is None:
        # Printed at the start too, where the first redraw scrolls it away: here it stays until the game ends.
        out.append(f"\ncommitted dice: commitment {commitment} (the seed is revealed at the end)")
    return _with_units_legend(table, out)


def dice_commitment(dice: object) -> str | None:
    """The commitment of the committed dice a game is rolled with (the table's chance source or the host's own
    source), else None."""
    from conquista.dice.chance import GameChance
    from conquista.dice.sources import CommittedDice

    committed = dice.committed() if isinstance(dice, GameChance) else dice
    return committed.commitment if isinstance(committed, CommittedDice) else None


def _with_units_legend(table: SimulatedTable, out: Text) -> Text:
    """With fleets or a progressive deal (lamorisse-1954): how units are counted and what a slow blink means."""
    game = table.game
    notes = []
    if game.rules.fleets:
        notes.append("3+2f: 3 armies, 2 fleets")
    if game.rules.deal is DealKind.PROGRESSIVE:
        notes.append("slow blink: newly dealt, put its army there, tap it · dark, ·: not dealt")
    if notes:
        out.append("\nunits: " + " · ".join(notes))
    return out


def _clock(seconds: float) -> str:
    whole = int(seconds + 0.999)   # 0:01 left until the time is really up
    return f"{whole // 60}:{whole % 60:02d}"


def status_lines(status: Status, colours: Sequence[str] = (), *, menu: bool = False) -> Text:
    """The status under the board; `colours`: the seats', which name a tournament's points. `menu`: the set-up
    menu shows, so there is no turn to tell (its game is a stand-in)."""
    chance = f" · chance to conquer {percent(status.chance)}" if status.chance is not None else ""
    clock = f" · {_clock(status.time_left)} left" if status.time_left is not None else ""
    if menu:
        head = Text("a new game is being set up\n", style="bold")
    else:
        head = Text(f"turn {status.turn}, round {status.round} · {status.colour} · {phase_words(status.phase)}"
                    f"{chance}{clock}\n", style="bold")
    head.append(status.pending)
    if status.tournament is not None:   # the tournament ending: its clock (or its round) and the points
        points = ", ".join(f"{colour} {p}" for colour, p in zip(colours, status.tournament.points, strict=False))
        head.append(f"\n{stage_words(status.tournament)} · points: {points}", style="bold")
    if status.message and status.message_kind is MessageKind.REFUSAL:
        head.append(f"\n! {status.message}", style="yellow")   # "!" marks a refusal only
    elif status.message:
        head.append(f"\n{status.message}", style="cyan" if status.message_kind is MessageKind.NOTICE else "yellow")
    return head


def render(table: SimulatedTable, width: int = 200, height: int = 60, people: Collection[int] | None = None,
           join_url: str = "", replay_seats: Sequence[str | None] | None = None) -> Group:
    """The whole board for a terminal of `width`×`height`; `people` are the seats typed for (default: non-bots);
    `join_url`: the web app's join page, shown with its QR code when the terminal has room for it; `replay_seats`:
    the board replays a game, whose seats the legend names as `legend` says."""
    layout = choose_layout(width, height)
    if people is None:
        people = [s for s in range(table.game.players) if s not in table.bots]
    attack, defend = table.dice_panel()
    panel = Text("dice ")
    for value in attack:
        panel.append(f" {value or '·'} ", style="bold white on red" if value else "dim")
    panel.append(" vs ")
    for value in defend:
        panel.append(f" {value or '·'} ", style="bold white on blue" if value else "dim")
    panel.append("   ring ")
    for r, g, b in table.ring():
        panel.append("●", style=f"rgb({r},{g},{b})" if (r, g, b) != (0, 0, 0) else "grey23")
    menu = table.referee.view().menu
    notes, status = legend(table, people, replay_seats), status_lines(table.status(), table.game.rules.colours,
                                                                      menu=menu is not None)
    # A line per player (issue 39 §7), but not over the set-up menu's stand-in game nor in a replay's legend.
    players = (player_lines(table.game, table.bot_kinds) if menu is None and replay_seats is None
               else Text())
    shown = _log_lines(layout, width, height, [notes, players, panel, status])
    log = Text("\n".join(table.log[-shown:]) if shown else "", style="dim")
    board = Panel(render_map(table, layout, width), title=f"conquista · {table.game.rules.name}", expand=False,
                  padding=(0, 0))
    under: list[RenderableType] = [notes, *([players] if players.plain else []), panel, status,
                                   *([log] if shown else [])]
    head: list[RenderableType] = [Text(layout.too_small, style="bold red")] if layout.too_small else []
    if not join_url:
        return Group(*head, board, *under)
    # The map's frame has the same size all game long (its armies aside, which fit their cells), so it is measured
    # once per map, layout and width: measuring is most of the cost of a redraw.
    key = (table.game.map.sha256, layout.name, width)
    if key not in _BOARD_SIZES:
        _BOARD_SIZES[key] = _lines(board, width)
    return _with_join_code(head, board, _BOARD_SIZES[key], under, join_url, width, height)


def _log_lines(layout: Layout, width: int, height: int, texts: list[Text]) -> int:
    """The log's lines: the layout's, fewer when a longer legend or status would push the prompt off the screen
    (none when the status's words take the last line: they are what to do now; `log` shows the rest)."""
    if layout.too_small:
        return layout.log_lines
    used = GRID_ROWS * layout.lines + 2 + sum(
        max(1, len(textwrap.wrap(line, width))) for text in texts for line in text.plain.split("\n"))
    return max(0, min(layout.log_lines, height - PROMPT_LINES - used))


def join_code(url: str) -> Text:
    """The QR code of the join URL, white on black so that it reads on a light terminal too."""
    from conquista.web.qr import qr_lines  # segno, only once the web app serves

    return Text("\n".join(qr_lines(url)), style="white on black", no_wrap=True)


@functools.lru_cache(maxsize=2)
def _measuring(width: int) -> Console:
    return Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)


def _lines(renderable: RenderableType, width: int) -> tuple[int, int]:
    """The lines and the columns `renderable` takes on a terminal `width` wide."""
    console = _measuring(width)
    return len(console.render_lines(renderable, console.options, pad=False)), console.measure(renderable).maximum


def _with_join_code(head: list[RenderableType], board: Panel, board_size: tuple[int, int],
                    under: list[RenderableType], url: str, width: int, height: int) -> Group:
    line = Text(f"join from a phone: {url}", style="bold")
    room = height - PROMPT_LINES
    code = join_code(url)
    rows = code.plain.splitlines()
    code_lines, code_width = len(rows), max(map(cell_len, rows))
    board_lines, board_width = board_size
    rest, _ = _lines(Group(*head, *under, line), width)
    if board_width + 2 + code_width <= width and rest + max(board_lines, code_lines) <= room:
        beside = Table.grid(padding=(0, 2))
        beside.add_row(board, code)
        return Group(*head, beside, *under, line)
    if rest + board_lines + code_lines <= room:
        return Group(*head, board, *under, code, line)
    return Group(*head, board, *under, Text.assemble(line, (" · a larger terminal shows its QR code", "dim")))
