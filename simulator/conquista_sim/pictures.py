"""Pictures of the status ring and the dice panel for docs/playing.md, drawn from frames the real code paints.

Each picture is a simulated table brought to a moment of a game; the referee's scene is painted into a strip
frame by the same `paint()` the board uses, and the ring's and dice pips' LEDs are read back from that frame
through the board profile. So a picture cannot show what the board does not. Regenerate with
`python -m conquista_sim.pictures docs/img`; `tests/docs/test_pictures.py` fails when they are stale.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path

from conquista.app.runner import paint
from conquista.hardware.profile import PIPS_PER_DIE
from conquista.rules.events import Phase
from conquista.table.colours import ILLEGAL, NEUTRAL, OFF, PLAYER_RGB, RGB, SELECT
from conquista.table.inputs import AskQuestion, Fault, FaultSource, OfferMenu, WithdrawQuestion
from conquista.table.questions import QuestionKind, TableQuestion
from conquista_sim.table import SimulatedTable

DARK = "#222"
# Pip centres in PIP_NAMES order on a 30 × 30 die face.
PIP_XY = ((8, 8), (22, 8), (8, 15), (15, 15), (22, 15), (8, 22), (22, 22))


def _hex(rgb: RGB) -> str:
    return DARK if rgb == OFF else "#{:02x}{:02x}{:02x}".format(*rgb)


def _svg(width: int, height: int, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n<rect width="{width}" height="{height}" fill="#111"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def ring_svg(colours: list[RGB]) -> str:
    n = len(colours)
    body = []
    for i, rgb in enumerate(colours):
        angle = 2 * math.pi * i / n - math.pi / 2   # position 0 at the top, clockwise
        x, y = 60 + 45 * math.cos(angle), 60 + 45 * math.sin(angle)
        body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{_hex(rgb)}"/>')
    return _svg(120, 120, body)


def dice_svg(attack: list[list[RGB]], defence: list[list[RGB]]) -> str:
    body = []
    for row, dice in enumerate((attack, defence)):
        for d, pips in enumerate(dice):
            x0, y0 = 10 + 40 * d, 10 + 40 * row
            body.append(f'<rect x="{x0}" y="{y0}" width="30" height="30" rx="4" fill="#333"/>')
            for (px, py), rgb in zip(PIP_XY, pips, strict=True):
                body.append(f'<circle cx="{x0 + px}" cy="{y0 + py}" r="3" fill="{_hex(rgb)}"/>')
    return _svg(130, 90, body)


def swatches_svg(colours: list[RGB]) -> str:
    body = [f'<rect x="{6 + 30 * i}" y="6" width="24" height="24" rx="4" fill="{_hex(c)}"/>'
            for i, c in enumerate(colours)]
    return _svg(6 + 30 * len(colours), 36, body)


def _read(table: SimulatedTable, now: float) -> tuple[list[RGB], list[list[RGB]], list[list[RGB]]]:
    frame = paint(table.layout, table.referee.view().scene(now))
    profile = table.profile

    def led(i: int) -> RGB:
        return frame[3 * i], frame[3 * i + 1], frame[3 * i + 2]

    ring = [led(i) for i in profile.ring]
    attack = [[led(i) for i in die] for die in profile.dice_attack]
    defence = [[led(i) for i in die] for die in profile.dice_defence]
    if any(len(die) != PIPS_PER_DIE for die in attack + defence):
        raise RuntimeError("a die of the profile does not have 7 pips")
    return ring, attack, defence


def _attack_ready(seed: int = 4) -> SimulatedTable:
    """A classic two-player game at its first attack: bots set it up, then a hand selects source and target."""
    table = SimulatedTable("classic", 2, seed=seed, bots=(0, 1), think_time=0.05)
    while table.game.phase is not Phase.ATTACK:
        table.advance(0.05)
    table.bots = frozenset()
    game = table.game
    for source in range(game.map.size):
        if game.owner[source] == game.current and game.armies[source] >= 4:
            targets = [t for t in game.map.neighbours[source] if game.owner[t] != game.current]
            if targets:
                table.tap(game.map.id(source))
                table.tap(game.map.id(targets[0]))
                return table
    raise RuntimeError("no attack to picture in this game")


def _menu_pictures(out: dict[str, str]) -> None:
    """The set-up menu's three steps, as the ring shows them (the seats' step with blue a bot)."""
    from conquista.app.setup import menu_options
    from conquista.table.gestures import Button, Press, Turn
    from conquista.table.setup_menu import SetupMenu

    with SimulatedTable("italian", 3, seed=1) as table:
        referee = table.referee
        referee.step(OfferMenu(SetupMenu(menu_options(), rules="italian", players=3)), 0.0)
        out["ring-menu-rules.svg"] = ring_svg(_read(table, 0.1)[0])
        referee.step(Press(Button.ROLL), 0.0)
        out["ring-menu-players.svg"] = ring_svg(_read(table, 0.1)[0])
        for gesture in (Press(Button.ROLL), Turn(1), Press(Button.CANCEL), Turn(1)):
            referee.step(gesture, 0.0)
        out["ring-menu-seats.svg"] = ring_svg(_read(table, 0.1)[0])


def _trade_picture(out: dict[str, str]) -> None:
    """A player's reinforcement with 4 armies to place and a set of cards to trade."""
    with SimulatedTable("italian", 3, seed=1, bots=(0, 1, 2), think_time=0.05) as table:
        while table.game.phase is not Phase.REINFORCE:
            table.advance(0.05)
        table.bots = frozenset()
        game = table.game
        cannons = [t.index for t in game.map.territories if t.card == "cannon"][:3]
        game.hands[game.current] = cannons
        game.pool = 4
        out["ring-trade.svg"] = ring_svg(_read(table, math.floor(table.clock.now()) + 0.1)[0])


def pictures() -> dict[str, str]:
    out: dict[str, str] = {}
    _menu_pictures(out)
    _trade_picture(out)
    with SimulatedTable("italian", 3, seed=1) as table:
        now = table.clock.now()
        out["ring-place.svg"] = ring_svg(_read(table, now)[0])
        question = TableQuestion(QuestionKind.RESUME, "resume the unfinished game?")
        table.referee.step(AskQuestion(question), now)
        out["ring-question.svg"] = ring_svg(_read(table, math.floor(now) + 0.1)[0])
        table.referee.step(WithdrawQuestion(question), now)
        # The faults come to the referee as its inputs, as the link's and the journal's do.
        table.referee.step(Fault(FaultSource.LINK, "sensor link down"), now)
        out["ring-fault.svg"] = ring_svg(_read(table, math.floor(now) + 0.1)[0])
        table.referee.step(Fault(FaultSource.LINK, None), now)
        table.referee.step(Fault(FaultSource.STORAGE, "disk full"), now)
        out["ring-storage-fault.svg"] = ring_svg(_read(table, math.floor(now) + 0.1)[0])
    with _attack_ready() as table:
        out["ring-dice.svg"] = ring_svg(_read(table, table.clock.now())[0])
        table.press("roll")
        if table.game.phase is Phase.DEFEND:
            table.press("roll")   # classic lets the defender choose: the most dice, as offered
        _, attack, defence = _read(table, table.clock.now())
        out["dice-panel.svg"] = dice_svg(attack, defence)
    out["seat-colours.svg"] = swatches_svg([*PLAYER_RGB.values(), NEUTRAL])
    out["signals.svg"] = swatches_svg([PLAYER_RGB["red"], SELECT, ILLEGAL, OFF])
    return out


def write(directory: Path, render: Callable[[], dict[str, str]] = pictures) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in render().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")):
        print(path)
