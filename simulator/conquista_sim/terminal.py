"""The simulated board in a terminal (rich): the map in LED colours with army counts, the dice panel, the status
ring, the log, and a prompt that takes territory names (English or Italian, with completion) and button names.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from conquista.errors import ConquistaError
from conquista.rules.mapdata import GameMap
from conquista_sim.table import BUTTONS, SimulatedTable

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
# Seven-letter labels that stay unambiguous (three territories start with "Western").
SHORT: dict[str, str] = {
    "northwest_territory": "NW Terr", "western_us": "W US", "eastern_us": "E US", "central_america": "C Amer",
    "great_britain": "G Brit", "northern_europe": "N Eur", "western_europe": "W Eur", "southern_europe": "S Eur",
    "north_africa": "N Afr", "east_africa": "E Afr", "south_africa": "S Afr", "middle_east": "Mid E",
    "western_australia": "W Aus", "eastern_australia": "E Aus", "new_guinea": "N Guin", "siam": "Siam",
}
CELL = 12
HELP = ("commands: a territory name (tap) · long NAME · roll · blitz (hold ROLL) · cancel · next · push (encoder) · "
        "+N / -N (turn the encoder) · wait [S] · help · quit")


def _fold(text: str) -> str:
    """Lower case without accents or separators, so 'Perù', 'peru' and 'PERU' all match."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


class NameIndex:
    """Territory lookup by id, English or Italian name, or an unambiguous prefix of one."""

    def __init__(self, game_map: GameMap) -> None:
        self.names: dict[str, str] = {}
        for t in game_map.territories:
            for name in (t.id, t.name_en, t.name_it):
                self.names[_fold(name)] = t.id
        self.completions = sorted({n for t in game_map.territories for n in (t.name_en, t.name_it)} | set(BUTTONS))

    def resolve(self, text: str) -> str:
        key = _fold(text)
        if not key:
            raise ConquistaError("type a territory or a button name (help lists the commands)")
        if key in self.names:
            return self.names[key]
        matches = {tid for name, tid in self.names.items() if name.startswith(key)}
        if len(matches) == 1:
            return matches.pop()
        if matches:
            raise ConquistaError(f"{text!r} could be {', '.join(sorted(matches)[:5])}: type more of the name")
        raise ConquistaError(f"no territory or command {text!r} ({HELP})")


def _cell(table: SimulatedTable, tid: str) -> Text:
    t = table.game.map.index(tid)
    r, g, b = table.led(tid)
    dark = r * 0.3 + g * 0.59 + b * 0.11 < 110
    label = SHORT.get(tid, table.game.map.territories[t].name_en)[: CELL - 5]
    return Text(f"{label:<{CELL - 5}}{table.game.armies[t]:>3} ", style=f"{'white' if dark else 'black'} on "
                f"rgb({r},{g},{b})")


def render_map(table: SimulatedTable) -> Text:
    game_map = table.game.map
    grid = CLASSIC_GRID if all(t.id in CLASSIC_GRID for t in game_map.territories) else None
    if grid is None:  # a board builder's own map: one line per continent
        out = Text()
        for continent in game_map.continents:
            out.append(f"{continent.name_en[:14]:<15}")
            for t in continent.territories:
                out.append_text(_cell(table, game_map.id(t)))
                out.append(" ")
            out.append("\n")
        return out
    rows = max(r for r, _ in grid.values()) + 1
    cols = max(c for _, c in grid.values()) + 1
    at = {pos: tid for tid, pos in grid.items()}
    out = Text()
    for r in range(rows):
        for c in range(cols):
            tid = at.get((r, c))
            if tid is None:
                out.append(" " * CELL)
            else:
                out.append_text(_cell(table, tid))
        out.append("\n")
    return out


def render(table: SimulatedTable, log_lines: int = 8) -> Group:
    attack, defend = table.dice_panel()
    dice = Text("dice  ")
    for value in attack:
        dice.append(f" {value or '·'} ", style="bold white on red" if value else "dim")
    dice.append("  vs  ")
    for value in defend:
        dice.append(f" {value or '·'} ", style="bold white on blue" if value else "dim")
    ring = Text("ring  ")
    for r, g, b in table.ring():
        ring.append("●", style=f"rgb({r},{g},{b})" if (r, g, b) != (0, 0, 0) else "grey23")
    status = table.status()
    chance = f" · chance to conquer {status.chance:.0%}" if status.chance is not None else ""
    head = Text(f"{status.colour} to play · {status.phase} · turn {status.turn}, round {status.round}{chance}\n",
                style="bold")
    head.append(status.pending)
    if status.message:
        head.append(f"\n! {status.message}", style="yellow")
    log = Text("\n".join(table.log[-log_lines:]), style="dim")
    return Group(Panel(render_map(table), title=f"conquista · {table.game.rules.name}", expand=False), dice, ring,
                 head, log)


@dataclass
class Command:
    kind: str          # tap, long, press, hold, turn, wait, help, quit
    arg: str = ""
    number: float = 0.0


def parse_command(line: str, names: NameIndex) -> Command:
    words = line.strip().split(maxsplit=1)
    if not words:
        raise ConquistaError(HELP)
    head = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    if head in ("quit", "exit"):
        return Command("quit")
    if head in ("help", "?"):
        return Command("help")
    if head == "wait":
        try:
            return Command("wait", number=float(rest or "1"))
        except ValueError:
            raise ConquistaError(f"wait takes seconds, not {rest!r}") from None
    if head[0] in "+-" and head[1:].isdigit():
        return Command("turn", number=int(head))
    if head == "blitz":
        return Command("hold", "roll")
    if head == "push":
        return Command("press", "encoder")
    if head == "hold" and rest.lower() in BUTTONS:
        return Command("hold", rest.lower())
    if head in BUTTONS and not rest:
        return Command("press", head)
    if head == "long" and rest:
        return Command("long", names.resolve(rest))
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
            table.hold(command.arg)
        case "turn":
            table.turn(int(command.number))
        case "wait":
            table.advance(command.number)


def let_bots_play(table: SimulatedTable, max_seconds: float = 600.0) -> None:
    """Advance simulated time while a bot is to move, so the person gets the board back."""
    waited = 0.0
    while not table.game.over and table.game.to_move in table.bots and waited < max_seconds:
        table.advance(table.think_time)
        waited += table.think_time


def run_script(table: SimulatedTable, lines: Iterable[str], echo: Callable[[str], None]) -> None:
    """Run commands (one per line; # starts a comment) and echo every log line as it happens."""
    names = NameIndex(table.game.map)
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
        if command.kind == "help":
            continue
        execute(table, command)
        message = table.status().message
        if message:
            echo(f"[line {number}: {line}] {message}")
        let_bots_play(table)


def _completer(options: list[str]) -> Callable[[str, int], str | None]:
    def complete(text: str, state: int) -> str | None:
        folded = _fold(text)
        matches = [o for o in options if _fold(o).startswith(folded)]
        return matches[state] if state < len(matches) else None

    return complete


def run_interactive(table: SimulatedTable, console: Console, read: Callable[[str], str] = input) -> None:
    names = NameIndex(table.game.map)
    try:
        import readline

        readline.set_completer(_completer(names.completions))
        readline.set_completer_delims("")
        readline.parse_and_bind("tab: complete")
    except ImportError:  # no readline (e.g. Windows): the prompt works without completion
        pass
    let_bots_play(table)
    console.print(render(table))
    console.print(HELP, style="dim")
    while not table.game.over:
        try:
            line = read("> ")
        except EOFError:
            break
        try:
            command = parse_command(line, names)
        except ConquistaError as exc:
            console.print(str(exc), style="yellow")
            continue
        if command.kind == "quit":
            break
        if command.kind == "help":
            console.print(HELP)
            continue
        execute(table, command)
        let_bots_play(table)
        console.print(render(table))
    if table.game.over:
        console.print(f"{table.status().pending}", style="bold")


def demo_lines(table: SimulatedTable, max_seconds: float = 100_000.0) -> Iterator[str]:
    """All seats are bots: advance time until the game ends, yielding log lines as they appear."""
    seen = 0
    waited = 0.0
    while not table.game.over and waited < max_seconds:
        table.advance(table.think_time)
        waited += table.think_time
        log = table.referee.log
        while seen < len(log):
            yield log[seen]
            seen += 1
