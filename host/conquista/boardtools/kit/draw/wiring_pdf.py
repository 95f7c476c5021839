"""`wiring.pdf`: what to solder, drawn over the map as the builder sees it with the plate turned over (mirrored
left to right, the text kept readable): the LED chain in index order with every LED's index, each switch's matrix
row and column, the power injection points; a second page with the matrix table and the data path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conquista.boardtools.kit.draw.board_art import INK, draw_map, mm_axes
from conquista.boardtools.kit.draw.labels import Labels
from conquista.boardtools.kit.plan.board import SENSORS
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.routes import Routes
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


def write_wiring(path: Path, layout: Layout, wires: Routes, pins: Any) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(path, metadata={"Title": f"{layout.profile.name}: wiring", "Creator": "conquista board kit"}) as pdf:
        pdf.savefig(_board_page(layout, wires))
        pdf.savefig(_table_page(layout, pins))


def _board_page(layout: Layout, wires: Routes) -> Any:
    from matplotlib.patches import Circle

    f = layout.frame
    fig = _figure(f.width, f.height)
    # Seen from below: x runs from right to left.
    ax = mm_axes(fig, (0, 0, 1, 1), (f.width, 0), (0, f.height))
    draw_map(ax, layout)
    names = list(ax.texts)       # the map's names give way to the wiring's labels, placed first
    labels = Labels(ax)
    _notes(ax, layout, wires, labels)
    xs, ys = zip(*wires.chain, strict=True)
    ax.plot(xs, ys, color=CHAIN, linewidth=0.9, alpha=0.85)
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
    ax.add_patch(Circle((ex, ey), 6, facecolor=POWER, edgecolor=INK, linewidth=0.6))
    labels.block_disc(ex, ey, 6)
    switch_labels = _switches(ax, layout, wires, labels)
    for text in switch_labels:
        labels.place(text)
    for led in wires.injections:
        x, y = wires.led_at[led]
        labels.place(ax.text(x, y + 5, f"5 V in (LED {led})", fontsize=LABEL_PT, ha="center", va="top",
                             color=POWER, fontweight="bold", bbox=LABEL_BOX, zorder=5))
    labels.place(ax.text(ex, ey + 8, "enclosure: Pi, Pico, level shifter, supply", fontsize=LABEL_PT,
                         ha="center", va="top", bbox=LABEL_BOX, zorder=5))
    for text in names:
        labels.place(text)
    return fig


def _notes(ax: Any, layout: Layout, wires: Routes, labels: Labels) -> None:
    """The page's title and key, top left of the page (the right of the mirrored axes)."""
    x0 = layout.frame.width - 14
    lines = [f"{layout.profile.name}: wiring, SEEN FROM BELOW (the plate turned over, left and right swapped)",
             f"red: the LED chain in index order, DOUT of each LED to DIN of the next ({len(wires.led_at)} LEDs); "
             "orange: 5 V fed in",
             _sensor_key(layout)]
    for i, line in enumerate(lines):
        labels.block(ax.text(x0, 5 + 4.5 * i, line, fontsize=7 if i else 9, ha="left", va="top", color=INK,
                             fontweight="bold" if i == 0 else "normal"))


def _sensor_key(layout: Layout) -> str:
    sensors = layout.profile.sensors
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        return ("at each pad: B board, E electrode; dotted: the pad's wire to its MPR121 board; black: the I2C "
                "cable (STEMMA QT) from the Pico through the boards")
    if sensors.kind is SensorKind.SERIAL:
        return "at each switch: its matrix cell r/c (row wire, column wire); the diode's band towards the row"
    return "at each switch: its GPIO; the switch's other leg to ground (a tactile switch's legs are joined in pairs)"


def _switches(ax: Any, layout: Layout, wires: Routes, labels: Labels) -> list[Any]:
    """Each switch's mark (kept clear of) and its matrix cell or pin (returned, to be placed)."""
    sensors = layout.profile.sensors
    game_map = layout.profile.game_map
    for index, route in enumerate(wires.rows if sensors.kind is SensorKind.SERIAL else ()):
        xs, ys = zip(*route, strict=True)
        ax.plot(xs, ys, color=ROW_COLOURS[index % len(ROW_COLOURS)], linewidth=0.5, linestyle=(0, (2, 2)))
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
    for _, pad, board in wires.pad_wires:
        colour = ROW_COLOURS[board_of.get(board, 0) % len(ROW_COLOURS)]
        ax.plot([pad[0], board[0]], [pad[1], board[1]], color=colour, linewidth=0.5, linestyle=(0, (2, 2)))
    if len(wires.i2c) > 1:
        xs, ys = zip(*wires.i2c, strict=True)
        ax.plot(xs, ys, color=INK, linewidth=1.4, alpha=0.8)
    for b, (x, y) in enumerate(wires.controllers):
        ax.plot([x], [y], marker="s", markersize=9, color=ROW_COLOURS[b % len(ROW_COLOURS)], zorder=4)
        labels.block_disc(x, y, 3.5)
        labels.place(ax.text(x, y + 4.5, f"MPR121 B{b} (0x{0x5A + b:X})", fontsize=LABEL_PT, ha="center", va="top",
                             fontweight="bold", bbox=LABEL_BOX, zorder=5))


def _table_page(layout: Layout, pins: Any) -> Any:
    profile = layout.profile
    fig = _figure(297, 210)
    ax = mm_axes(fig, (0, 0, 1, 1), (0, 297), (0, 210))
    ax.text(12, 12, f"{profile.name}: the matrix, the data path and the panel's pins", fontsize=11,
            fontweight="bold", va="top")
    sensors = profile.sensors
    y = 24.0
    if sensors.kind is SensorKind.SERIAL:
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
        f"LED data: {source} → 74AHCT125 pin 2 (1A); pin 3 (1Y) → data wire → 330 Ω at LED 0's DIN",
        "74AHCT125: pin 14 to 5 V, pin 7 to ground, pin 1 (1OE) to ground; pins 4, 10, 13 to 5 V; pins 5, 9, 12 "
        "to ground",
        f"LED power: 5 V supply through the fuse, 1000 µF across it; fed in at LEDs "
        f"{', '.join(str(i) for i in _injections(layout))}; join every ground (supply, Pi, Pico, shifter)",
        f"Buttons to ground: ROLL GPIO{profile.buttons.roll} · CANCEL GPIO{profile.buttons.cancel} · NEXT "
        f"GPIO{profile.buttons.next}",
        f"Encoder: A GPIO{profile.encoder.a} · B GPIO{profile.encoder.b} · push GPIO{profile.encoder.push} · "
        "common to ground",
        f"Buzzer: + GPIO{profile.buzzer_pin}, − to ground" if profile.buzzer_pin is not None else "Buzzer: none",
        "The Pico connects to the Pi by USB only.",
    ]
    for i, line in enumerate(lines):
        ax.text(12, y + 7 * i, line, fontsize=8, va="top", color=INK)
    return fig


def _injections(layout: Layout) -> tuple[int, ...]:
    from conquista.boardtools.kit.plan.routes import injection_leds

    return injection_leds(layout)
