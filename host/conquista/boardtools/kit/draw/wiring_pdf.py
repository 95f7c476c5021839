"""`wiring.pdf`: what to solder, drawn over the map as the builder sees it with the plate turned over (mirrored
left to right, the text kept readable): the LED chain in index order with every LED's index, the shifter board and
its two leads, each pad's wire to its MPR121 board and the I2C cable (or each switch's row and column wire), the
power feeds and the panel's wires, each a wire of a net of the board's netlist (`plan/netlist.py`); then the
netlist's parts page by page with every wire between their pins, and the pin table. `wiring-a4.pdf` and
`wiring-a3.pdf` are the same with the board page cut into home-printer pages at 1:1, so its 6 pt labels print at
their size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquista.boardtools.kit.draw.board_art import INK, draw_map, mm_axes
from conquista.boardtools.kit.draw.labels import Labels
from conquista.boardtools.kit.plan.board import SENSORS
from conquista.boardtools.kit.plan.netlist import Netlist, Run, netlist
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.routes import SHIFTER_BOARD_MM, Routes
from conquista.boardtools.kit.plan.tiling import PRINT_MARGIN, Tiling
from conquista.hardware.profile import MPR121_ELECTRODES, SensorKind, SensorPart, StripDriver

MM_PER_INCH = 25.4
CHAIN = "#c0392b"
POWER = "#e67e22"
LED_PT = 6.0          # an LED's number: legible printed at 1:1
LABEL_PT = 6.0        # a switch's cell, a power point
LED_CIRCLE_MM = 3.2   # holds a three-digit number at LED_PT; LEDs are at least 8 mm apart, so circles never touch
LABEL_BOX = {"boxstyle": "square,pad=0.15", "facecolor": "white", "alpha": 0.75, "edgecolor": "none"}
ROW_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")


def _figure(width_mm: float, height_mm: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width_mm / MM_PER_INCH, height_mm / MM_PER_INCH))


def wiring_netlist(layout: Layout, wires: Routes, pins: Any) -> Netlist:
    return netlist(layout.profile, pins, wires.shifter is not None)


def wiring_figures(layout: Layout, wires: Routes, pins: Any) -> list[Any]:
    """Every page of wiring.pdf: the board seen from below, the parts with their wires, the pin table."""
    from conquista.boardtools.kit.draw.schematic_pdf import schematic_figures

    nl = wiring_netlist(layout, wires, pins)
    f = layout.frame
    fig = _figure(f.width, f.height)
    ax = mm_axes(fig, (0, 0, 1, 1), (f.width, 0), (0, f.height))     # seen from below: x runs right to left
    _draw_board(ax, layout, wires, nl)
    parts = [page for page, _ in schematic_figures(nl, layout.profile.name, wires=True)]
    return [fig, *parts, _table_page(layout, pins)]


def write_wiring(path: Path, layout: Layout, wires: Routes, pins: Any) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(path, metadata={"Title": f"{layout.profile.name}: wiring", "Creator": "conquista board kit"}) as pdf:
        for fig in wiring_figures(layout, wires, pins):
            pdf.savefig(fig)


def write_wiring_tiles(path: Path, layout: Layout, wires: Routes, pins: Any, tiling: Tiling) -> None:
    """The board page at 1:1 on the tiling's pages (seen from below, so the columns run right to left over the
    board), then the parts pages and the pin table as in wiring.pdf."""
    from matplotlib.backends.backend_pdf import PdfPages

    from conquista.boardtools.kit.draw.map_pdf import _crop_marks
    from conquista.boardtools.kit.draw.schematic_pdf import schematic_figures

    nl = wiring_netlist(layout, wires, pins)
    f = layout.frame
    pw, ph = tiling.page_width, tiling.page_height
    m = PRINT_MARGIN
    first = tiling.tiles[0]
    meta = {"Title": f"{layout.profile.name}: wiring on {tiling.paper.upper()} pages", "Creator": "conquista board kit"}
    with PdfPages(path, metadata=meta) as pdf:
        fig = _figure(pw, ph)
        ax = mm_axes(fig, (m / pw, m / ph, first.width / pw, first.height / ph),
                     (first.x + first.width, first.x), (first.y, first.y + first.height))
        _draw_board(ax, layout, wires, nl)
        for artist in (*ax.texts, *ax.lines, *ax.patches):
            artist.set_clip_on(True)
        page = _crop_marks(fig, tiling)
        # Seen from below, the sheet's left column shows the board's right edge: pages go in the order laid out.
        order = sorted(tiling.tiles, key=lambda t: (t.row, -t.col))
        for number, tile in enumerate(order, start=1):
            ax.set_xlim(tile.x + tile.width, tile.x)
            ax.set_ylim(tile.y + tile.height, tile.y)
            col = tiling.cols - tile.col + 1
            label = page.text(pw / 2, ph - 4, f"WIRING, SEEN FROM BELOW · row {tile.row} of {tiling.rows}, column "
                              f"{col} of {tiling.cols} (left to right as you look at the turned plate) · page "
                              f"{number} of {len(order)} · board x {max(tile.x, 0):.0f}-"
                              f"{min(tile.x + tile.width, f.width):.0f}, y {max(tile.y, 0):.0f}-"
                              f"{min(tile.y + tile.height, f.height):.0f} mm · print at 100 %", fontsize=6.5,
                              ha="center", va="bottom", color=INK)
            pdf.savefig(fig)
            label.remove()
        for part_page, _ in schematic_figures(nl, layout.profile.name, wires=True):
            pdf.savefig(part_page)
        pdf.savefig(_table_page(layout, pins))


def _cable(ax: Any, route: list[tuple[float, float]] | tuple[tuple[float, float], ...], nets: list[str],
           linewidth: float = 0.6, style: Any = "solid") -> None:
    """A cable of one core per net along `route`, the cores side by side 0.9 mm apart, each tagged with its net."""
    import math

    from conquista.boardtools.kit.draw.schematic_pdf import net_colour

    for i, net in enumerate(nets):
        offset = (i - (len(nets) - 1) / 2) * 0.9
        xs, ys = [], []
        for j, (x, y) in enumerate(route):
            a = route[max(j - 1, 0)]
            b = route[min(j + 1, len(route) - 1)]
            dx, dy = b[0] - a[0], b[1] - a[1]
            n = math.hypot(dx, dy) or 1.0
            xs.append(x - dy / n * offset)
            ys.append(y + dx / n * offset)
        ax.plot(xs, ys, color=net_colour(net), linewidth=linewidth, linestyle=style, alpha=0.9, gid=f"net:{net}")


def _net_wires(ax: Any, layout: Layout, wires: Routes, nl: Netlist, labels: Labels) -> None:
    """The netlist's wires that run under the plate: the leads, the feeds, the panel's wires."""
    from matplotlib.patches import Rectangle

    runs = {net.name: net.runs for net in nl.nets}

    def nets(run: Run, *names: str) -> list[str]:
        return [n for n in names if n in runs and run in runs[n]]

    led0 = wires.led_at[min(wires.led_at)]
    if wires.shifter is not None:
        _cable(ax, [wires.enclosure, wires.shifter], nets(Run.LEAD, "DATA_3V3", "+5V", "GND"), 0.7)
        sx, sy = wires.shifter
        w, h = SHIFTER_BOARD_MM
        ax.add_patch(Rectangle((sx - w / 2, sy - h / 2), w, h, facecolor="#fff6cc", edgecolor=INK, linewidth=0.8,
                               zorder=3))
        labels.block_disc(sx, sy, h / 2)
        labels.block(ax.text(sx, sy, "SHIFTER BOARD\n74AHCT125, 100 nF, 330 Ω", fontsize=LABEL_PT, ha="center",
                             va="center", fontweight="bold", color=INK, zorder=4))
        labels.place(ax.text(sx, sy + h / 2 + 2, f"data wire to LED 0: {wires.data_lead:.0f} mm (under 300)",
                             fontsize=LABEL_PT, ha="center", va="top", color=CHAIN, bbox=LABEL_BOX, zorder=5))
    _cable(ax, [wires.shifter_at, led0], nets(Run.DATA, "DIN0") + nets(Run.FEED, "+5V", "GND"), 0.8)
    for led in wires.injections[1:] if wires.injections and wires.injections[0] == min(wires.led_at) \
            else wires.injections:
        _cable(ax, [wires.enclosure, wires.led_at[led]], nets(Run.FEED, "+5V", "GND"), 0.8, (0, (6, 2)))
    panel = {p.name: (p.x, p.y) for p in layout.parts if p.name in ("ROLL", "CANCEL", "NEXT", "encoder")}
    for name, point in panel.items():
        cores = ["ENC_A", "ENC_B", "ENC_PUSH", "GND"] if name == "encoder" else [name, "GND"]
        _cable(ax, [wires.enclosure, point], nets(Run.PANEL, *cores), 0.6)
        ax.plot([point[0]], [point[1]], marker="o", markersize=5, color=INK, zorder=4)
        labels.block_disc(*point, 2.0)
        labels.place(ax.text(point[0], point[1] + 3, f"{name}: {', '.join(cores)}", fontsize=LABEL_PT,
                             ha="center", va="top", bbox=LABEL_BOX, zorder=5))


def _draw_board(ax: Any, layout: Layout, wires: Routes, nl: Netlist) -> None:
    """The board page's drawing on `ax` (board mm, mirrored): the map, then every wire under the plate."""
    from matplotlib.patches import Circle

    draw_map(ax, layout)
    names = list(ax.texts)       # the map's names give way to the wiring's labels, placed first
    labels = Labels(ax)
    _notes(ax, layout, wires, labels)
    xs, ys = zip(*wires.chain[1:], strict=True)      # LED to LED; the data wire to LED 0 is the DIN0 net's
    ax.plot(xs, ys, color=CHAIN, linewidth=0.9, alpha=0.85, gid="chain")
    for led, (x, y) in wires.led_at.items():
        # Above the chain's lines (a line drawn over a number would strike it through).
        ax.add_patch(Circle((x, y), LED_CIRCLE_MM, facecolor="white", edgecolor=CHAIN, linewidth=0.6, zorder=3))
        labels.block_disc(x, y, LED_CIRCLE_MM)
        labels.block(ax.text(x, y, str(led), fontsize=LED_PT, ha="center", va="center", color=CHAIN, zorder=4))
    for led in wires.injections:     # a thick orange ring round the LED where 5 V is fed in
        x, y = wires.led_at[led]
        ax.add_patch(Circle((x, y), LED_CIRCLE_MM + 1.0, facecolor="none", edgecolor=POWER, linewidth=1.8,
                            zorder=3))
        labels.block_disc(x, y, LED_CIRCLE_MM + 1.0)
    ex, ey = wires.enclosure
    ax.add_patch(Circle((ex, ey), 6, facecolor=POWER, edgecolor=INK, linewidth=0.6, zorder=3))
    labels.block_disc(ex, ey, 6)
    _net_wires(ax, layout, wires, nl, labels)
    switch_labels = _switches(ax, layout, wires, labels)
    for text in switch_labels:
        labels.place(text)
    for led in wires.injections:
        x, y = wires.led_at[led]
        labels.place(ax.text(x, y + 5, f"5 V in (LED {led})", fontsize=LABEL_PT, ha="center", va="top",
                             color=POWER, fontweight="bold", bbox=LABEL_BOX, zorder=5))
    inside = "Pi, Pico, supply" if wires.shifter is not None else "Pi, Pico, level shifter, supply"
    labels.place(ax.text(ex, ey + 8, f"enclosure: {inside}", fontsize=LABEL_PT, ha="center", va="top",
                         bbox=LABEL_BOX, zorder=5))
    for text in names:
        labels.place(text)


def _notes(ax: Any, layout: Layout, wires: Routes, labels: Labels) -> None:
    """The page's title and key, top left of the page (the right of the mirrored axes)."""
    x0 = layout.frame.width - 14
    lines = [f"{layout.profile.name}: wiring, SEEN FROM BELOW (the plate turned over, left and right swapped)",
             f"red: the LED chain in index order, DOUT of each LED to DIN of the next ({len(wires.led_at)} LEDs); "
             "orange: 5 V fed in",
             "cables of 2-4 cores, one line a core in its net's colour (schematic.pdf names them): the lead to the "
             "shifter board, the data wire to LED 0, the power feeds (dashed), the panel's wires",
             _sensor_key(layout)]
    for i, line in enumerate(lines):
        labels.block(ax.text(x0, 5 + 4.5 * i, line, fontsize=7 if i else 9, ha="left", va="top", color=INK,
                             fontweight="bold" if i == 0 else "normal"))


def _sensor_key(layout: Layout) -> str:
    sensors = layout.profile.sensors
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        return ("at each pad: B board, E electrode; dotted: the pad's wire to its MPR121 board; 4 cores: the I2C "
                "cable (STEMMA QT: SDA, SCL, 3V3, GND) from the Pico through the boards; each wire's colour is its "
                "net's in schematic.pdf")
    if sensors.kind is SensorKind.SERIAL:
        return "at each switch: its matrix cell r/c (row wire, column wire); the diode's band towards the row"
    return "at each switch: its GPIO; the switch's other leg to ground (a tactile switch's legs are joined in pairs)"


def _switches(ax: Any, layout: Layout, wires: Routes, labels: Labels) -> list[Any]:
    """Each switch's mark (kept clear of) and its matrix cell or pin (returned, to be placed)."""
    sensors = layout.profile.sensors
    game_map = layout.profile.game_map
    for index, route in enumerate(wires.rows if sensors.kind is SensorKind.SERIAL else ()):
        xs, ys = zip(*route, strict=True)
        ax.plot(xs, ys, color=ROW_COLOURS[index % len(ROW_COLOURS)], linewidth=0.5, linestyle=(0, (2, 2)),
                gid=f"net:ROW{index}")
    for index, route in enumerate(wires.cols if sensors.kind is SensorKind.SERIAL else ()):
        xs, ys = zip(*route, strict=True)
        ax.plot(xs, ys, color=ROW_COLOURS[(index + 3) % len(ROW_COLOURS)], linewidth=0.5,
                linestyle=(0, (6, 1, 1, 1)), gid=f"net:COL{index}")
    if sensors.kind is not SensorKind.SERIAL:        # a wire from the Pi to each switch, its other leg to ground
        tids = [p.territory for p in layout.parts if p.kind in SENSORS]
        for tid, route in zip(tids, wires.rows, strict=True):
            _cable(ax, route, [f"SW_{tid}", "GND"], 0.5)
    touch = sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121
    if touch:
        _touch_wires(ax, wires, labels)
    texts = []
    for p in layout.parts:
        if p.kind not in SENSORS or p.territory is None:
            continue
        t = game_map.index(p.territory)
        if touch:
            board, electrode = divmod(sensors.key_of_territory[t], MPR121_ELECTRODES)
            label = f"B{board} E{electrode}"
            colour = ROW_COLOURS[board % len(ROW_COLOURS)]
        elif sensors.kind is SensorKind.SERIAL:
            row, col = divmod(sensors.key_of_territory[t], sensors.cols)
            label = f"r{row} c{col}"
            colour = ROW_COLOURS[row % len(ROW_COLOURS)]
        else:
            label = f"GPIO{sensors.pin_of_territory[t]}"
            colour = INK
        ax.plot([p.x], [p.y], marker="s", markersize=4, color=colour)
        labels.block_disc(p.x, p.y, 1.5)
        texts.append(ax.text(p.x, p.y - 3.5, label, fontsize=LABEL_PT, ha="center", va="bottom", color=colour,
                             fontweight="bold", bbox=LABEL_BOX, zorder=5))
    return texts


def _touch_wires(ax: Any, wires: Routes, labels: Labels) -> None:
    """Each pad's wire to its MPR121 board, coloured by board, and the I2C cable from the enclosure through the
    boards in their chained order; each board a labelled square."""
    board_of = {point: b for b, point in enumerate(wires.controllers)}
    for tid, pad, board in wires.pad_wires:
        colour = ROW_COLOURS[board_of.get(board, 0) % len(ROW_COLOURS)]
        ax.plot([pad[0], board[0]], [pad[1], board[1]], color=colour, linewidth=0.5, linestyle=(0, (2, 2)),
                gid=f"net:PAD_{tid}")
    if len(wires.i2c) > 1:
        _cable(ax, wires.i2c, ["SDA", "SCL", "+3V3", "GND"], 0.6)
    for b, (x, y) in enumerate(wires.controllers):
        ax.plot([x], [y], marker="s", markersize=9, color=ROW_COLOURS[b % len(ROW_COLOURS)], zorder=4)
        labels.block_disc(x, y, 3.5)
        labels.place(ax.text(x, y + 4.5, f"MPR121 B{b} (0x{0x5A + b:X})", fontsize=LABEL_PT, ha="center", va="top",
                             fontweight="bold", bbox=LABEL_BOX, zorder=5))


def _table_page(layout: Layout, pins: Any) -> Any:
    profile = layout.profile
    fig = _figure(297, 210)
    ax = mm_axes(fig, (0, 0, 1, 1), (0, 297), (0, 210))
    sensors = profile.sensors
    touch = sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121
    what = "the touch boards' electrodes" if touch else "the matrix"
    ax.text(12, 12, f"{profile.name}: {what}, the data path and the panel's pins", fontsize=11,
            fontweight="bold", va="top")
    y = 24.0
    if touch:      # a column per board, a row per electrode: 12 rows fit the page, 12 columns would not
        names = {k: profile.game_map.territories[t].name_en for t, k in enumerate(sensors.key_of_territory)}
        for b in range(sensors.rows):
            ax.text(48 + b * 58, y, f"board B{b} · I2C 0x{0x5A + b:X}", fontsize=7, va="top", fontweight="bold",
                    color=ROW_COLOURS[b % len(ROW_COLOURS)])
        for e in range(MPR121_ELECTRODES):
            ax.text(12, y + 6 + 5.5 * e, f"electrode E{e}", fontsize=7, va="top", fontweight="bold")
            for b in range(sensors.rows):
                ax.text(48 + b * 58, y + 6 + 5.5 * e, names.get(b * MPR121_ELECTRODES + e, "— (open)"),
                        fontsize=6.5, va="top")
        y += 12 + 5.5 * MPR121_ELECTRODES
        ax.text(12, y, f"I2C: Pico GP{pins.sda} (SDA), GP{pins.scl} (SCL), 3V3 and GND to the first board's "
                "STEMMA QT socket, then board to board; ADDR: B0 open, B1 to 3V3, B2 to SDA, B3 to SCL",
                fontsize=8, va="top", color=INK)
        y += 8
    elif sensors.kind is SensorKind.SERIAL:
        names = {k: profile.game_map.territories[t].name_en for t, k in enumerate(sensors.key_of_territory)}
        for c in range(sensors.cols):
            ax.text(48 + c * 34, y, f"col {c} · GP{pins.cols[c] if c < len(pins.cols) else '?'}", fontsize=7,
                    va="top", fontweight="bold")
        for r in range(sensors.rows):
            ax.text(12, y + 7 + 7 * r, f"row {r} · GP{pins.rows[r] if r < len(pins.rows) else '?'}", fontsize=7,
                    va="top", fontweight="bold", color=ROW_COLOURS[r % len(ROW_COLOURS)])
            for c in range(sensors.cols):
                ax.text(48 + c * 34, y + 7 + 7 * r, names.get(r * sensors.cols + c, "—"), fontsize=6.5, va="top")
        y += 14 + 7 * sensors.rows
    strip = profile.strip
    source = (f"Pico GP{pins.led_pin}" if strip.driver is StripDriver.PICO
              else f"Pi GPIO{strip.data_pin} (header pin 12 for GPIO18)")
    lines = [
        f"LED data: {source} → 74AHCT125 pin 2 (1A); pin 3 (1Y) → 330 Ω → the data wire (under 300 mm) → "
        "LED 0's DIN",
        "74AHCT125: pin 14 to 5 V, pin 7 to ground, pin 1 (1OE) to ground; pins 4, 10, 13 to 5 V; pins 5, 9, 12 "
        "to ground",
        f"LED power: 5 V supply through the fuse, 1000 µF across it; fed in at LEDs "
        f"{', '.join(str(i) for i in _injections(layout))}; join every ground (supply, Pi, Pico, shifter)",
        f"Buttons to ground: ROLL GPIO{profile.buttons.roll} · CANCEL GPIO{profile.buttons.cancel} · NEXT "
        f"GPIO{profile.buttons.next}",
        f"Encoder: A GPIO{profile.encoder.a} · B GPIO{profile.encoder.b} · push GPIO{profile.encoder.push} · "
        "common to ground",
        f"Buzzer (passive piezo): GPIO{profile.buzzer_pin} → 100 Ω → +, − to ground" if profile.buzzer_pin
        is not None else "Buzzer: none",
        "The Pico connects to the Pi by USB only.",
    ]
    for i, line in enumerate(lines):
        ax.text(12, y + 7 * i, line, fontsize=8, va="top", color=INK)
    return fig


def _injections(layout: Layout) -> tuple[int, ...]:
    from conquista.boardtools.kit.plan.routes import injection_leds

    return injection_leds(layout)
