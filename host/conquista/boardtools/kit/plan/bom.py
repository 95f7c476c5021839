"""The bill of materials, every quantity computed from the profile, the layout and the route, with each part's
specification and a typical part number (any equivalent part does; the numbers say what to look for).

The supply and the fuse follow one rule from the profile's current limit `supply_ma` (the most the referee lets
the LEDs draw): the fuse is the smallest standard slow-blow value at or above 1.1 × `supply_ma`, so it never opens
at the limit the referee keeps to; the supply is the smallest common rating at or above both `supply_ma` +
500 mA of headroom and the fuse, so the fuse is never above the supply: any fault that would overload the supply
opens the fuse instead. Wire lengths are the routes with a quarter more for bends and joints, rounded up to half
a metre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from conquista.boardtools.kit.plan.board import SENSORS, PartKind
from conquista.boardtools.kit.plan.placement import Layout
from conquista.boardtools.kit.plan.routes import Routes, length
from conquista.boardtools.kit.plan.strings import STRING_PIXELS, ChainPlan
from conquista.hardware.profile import SensorKind, SensorPart, StripDriver

SUPPLY_RATINGS_A = (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.5, 15.0, 20.0, 30.0, 40.0, 60.0, 100.0, 150.0)
FUSE_RATINGS_A = (1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0, 10.0, 12.0, 15.0, 16.0, 20.0, 25.0, 30.0,
                  40.0, 50.0, 63.0, 80.0, 100.0, 125.0)
HEADROOM_MA = 500
FUSE_FACTOR = 1.1
SLACK = 1.25


@dataclass(frozen=True)
class Line:
    qty: float
    unit: str        # "pcs" or "m"
    part: str
    values: str      # the key values to buy by
    where: str       # what it is for, where it goes
    number: str = ""  # a typical part number
    group: str = "parts"   # "parts", "connectors", "mechanics", "consumables", "tools"


def _at_least(ratings: tuple[float, ...], amps: float) -> float:
    return next((r for r in ratings if r >= amps - 1e-9), ratings[-1])


def fuse_amps(supply_ma: float) -> float:
    return _at_least(FUSE_RATINGS_A, FUSE_FACTOR * supply_ma / 1000)


def supply_amps(supply_ma: float) -> float:
    return _at_least(SUPPLY_RATINGS_A, max((supply_ma + HEADROOM_MA) / 1000, fuse_amps(supply_ma)))


def _metres(mm: float) -> float:
    return math.ceil(mm * SLACK / 500) / 2


def bill(layout: Layout, wires: Routes, chain: ChainPlan) -> list[Line]:
    profile = layout.profile
    lines = _led_lines(layout, chain) + _sensor_lines(layout, wires) + _panel_lines(layout)
    lines += _enclosure_lines(layout, wires) + _connector_lines(layout, wires, chain)
    lines += _mechanics(layout) + _consumables(layout) + TOOLS
    if profile.buzzer_pin is None:
        lines = [line for line in lines if "piezo" not in line.part]
    return lines


def _led_lines(layout: Layout, chain: ChainPlan) -> list[Line]:
    profile = layout.profile
    if layout.route.leds == "single":
        leds = profile.strip.length
        return [Line(leds, "pcs", "WS2812B pixel on a round PCB", "5 V, 5050, 10 mm PCB, pads on the back",
                     f"every LED of the chain, glued under its 6 mm hole, LEDs 0-{leds - 1}", "WS2812B-10mm")]
    lines = []
    for run in chain.runs:
        lines.append(Line(run.strings, "pcs", "bullet pixel string, 12 mm, WS2811",
                          f"5 V, {STRING_PIXELS} pixels, {run.pitch / 10:g} cm of wire between pixels, JST-SM "
                          "3-pin plugs at both ends, power tails",
                          f"{run.what}: LEDs {run.leds[0]}-{run.leds[-1]} ({len(run.leds)} pixels), pushed into "
                          "12 mm holes; cut off the pixels left over", "BTF-Lighting WS2811 12mm 5V"))
    if layout.route.ring is not None:
        ring = layout.route.ring
        lines.append(Line(1, "pcs", f"WS2812B ring board, {ring.leds} LEDs",
                          f"{ring.outer:g} mm outside, {ring.inner:g} mm inside",
                          f"status ring: LEDs {profile.ring[0]}-{profile.ring[-1]}, in a {ring.outer + 1:g} mm hole",
                          ring.part_number))
    return lines


def _sensor_lines(layout: Layout, wires: Routes) -> list[Line]:
    sensors = layout.profile.sensors
    count = sum(1 for p in layout.parts if p.kind in SENSORS)
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        pad_mm = sum(math.dist(a, b) for _, a, b in wires.pad_wires)
        return [
            Line(sensors.rows, "pcs", "MPR121 capacitive touch board, STEMMA QT / Qwiic", "12 electrodes, I2C, 3.3 V",
                 f"under the plate amid its pads (wiring.pdf); addresses 0x5A-0x{0x5A + sensors.rows - 1:X} by "
                 "the ADDR wire", "Adafruit 4830"),
            Line(math.ceil(count * 0.03 * 1.3 * 10) / 10, "m", "copper foil tape, conductive adhesive",
                 "25 mm wide", f"{count} touch pads, each its territory's shape less 3 mm (drill-a4.pdf draws them)",
                 "3M 1181"),
            Line(_metres(pad_mm), "m", "hook-up wire", "24 AWG (0.2 mm²), stranded",
                 "one per pad, from the pad to its MPR121 electrode"),
        ]
    lines = [Line(count, "pcs", "tactile switch", "6 × 6 mm, stem through a 4 mm hole, THT; glue one level first",
                  "one under each territory", "Omron B3F-1000")]
    if sensors.kind is SensorKind.SERIAL:
        lines.append(Line(count, "pcs", "signal diode 1N4148", "DO-35", "one per switch, band towards the row wire",
                          "1N4148"))
        mm = sum(length(r) for r in wires.rows) + sum(length(c) for c in wires.cols)
        lines.append(Line(_metres(mm), "m", "hook-up wire", "24 AWG (0.2 mm²), stranded",
                          f"{len(wires.rows)} row and {len(wires.cols)} column wires of the matrix"))
    return lines


def _panel_lines(layout: Layout) -> list[Line]:
    return [
        Line(3, "pcs", "momentary push button", "12 mm panel mount, normally open", "ROLL, CANCEL, NEXT",
             "APEM IZM series"),
        Line(1, "pcs", "rotary encoder with push switch", "EC11, 20 detents, 6 mm shaft, M7 bush", "beside NEXT",
             "Bourns PEC11R series"),
        Line(1, "pcs", "knob", "for a 6 mm shaft", "on the encoder", group="mechanics"),
        Line(1, "pcs", "piezo transducer, passive", "not magnetic: 12 mm, about 20 nF; on the GPIO through 100 Ω "
             "(a magnetic buzzer draws 30-80 mA: it would need an NPN transistor, 1 kΩ and a diode, not drawn: "
             "buy the passive piezo)",
             "in the enclosure", "TDK PS1240P02BT"),
        Line(1, "pcs", "resistor", "100 Ω, 1/4 W", "in series with the piezo"),
    ]


def _enclosure_lines(layout: Layout, wires: Routes) -> list[Line]:
    profile = layout.profile
    strip = profile.strip
    fuse = fuse_amps(strip.supply_ma)
    pico = profile.sensors.kind is SensorKind.SERIAL or strip.driver is StripDriver.PICO
    lines = [
        Line(1, "pcs", "level shifter 74AHCT125", "DIP-14, 5 V", "LED data 3.3 V → 5 V, "
             + (f"on the shifter board under the plate, {wires.data_lead:.0f} mm of wire from LED 0 (wiring.pdf)"
                if wires.shifter is not None else "in the enclosure"), "TI SN74AHCT125N"),
        Line(1, "pcs", "IC socket", "DIP-14", "for the 74AHCT125"),
        Line(1, "pcs", "ceramic capacitor", "100 nF, 50 V", "at the 74AHCT125's pins 14 and 7"),
        Line(1, "pcs", "resistor", "330 Ω, 1/4 W", "in the data line, at the 74AHCT125's output"),
        Line(1, "pcs", "electrolytic capacitor", "1000 µF, 10 V or more", "across the LED supply where it enters"),
        Line(1, "pcs", "power supply for the LEDs", f"5 V, {supply_amps(strip.supply_ma):g} A, 5.5 × 2.1 mm plug",
             f"rule: the next common rating at or above supply_ma {strip.supply_ma:g} mA + {HEADROOM_MA} mA and "
             "at or above the fuse", "Mean Well GST25E05-P1J (5 V 4 A)"),
        Line(1, "pcs", "DC jack, panel mount", "5.5 × 2.1 mm, 5 A", "the LED supply's inlet, in the enclosure's back"),
        Line(1, "pcs", "fuse, slow-blow (T), and panel holder", f"{fuse:g} A, 5 × 20 mm",
             f"rule: {FUSE_FACTOR:g} × supply_ma, next standard value, never above the supply; in the + line",
             "Littelfuse 218 series (T, 5 × 20 mm)"),
        Line(1, "pcs", "perfboard", "50 × 70 mm, 2.54 mm pitch",
             "cut in two: the shifter board (74AHCT125, 100 nF, 330 Ω) and the enclosure's header board"),
        Line(1, "pcs", "Raspberry Pi", "4 B (2 GB) or 3 B+, or Zero 2 WH (header fitted), or 5 with "
             "driver = \"pico\"; its own supply; 16 GB micro-SD card", "the referee"),
    ]
    if pico:
        lines.append(Line(1, "pcs", "Raspberry Pi Pico H", "RP2040, headers fitted", "reads the sensors"
                          + ("; drives the LEDs" if strip.driver is StripDriver.PICO else ""), "SC0917"))
        lines.append(Line(1, "pcs", "USB cable", "USB-A to micro-USB, 0.5 m (a Zero: a micro-USB OTG adapter too)",
                          "Pico to Pi: the sensor link", group="connectors"))
    power_gauge = "18 AWG (0.8 mm²)" if fuse <= 8 else "14 AWG (2 mm²)"
    feeds = sum(math.dist(wires.enclosure, wires.led_at[led]) for led in wires.injections)
    lines.append(Line(_metres(2 * feeds), "m", "hook-up wire", f"{power_gauge}, red and black",
                      f"power feeds to LEDs {', '.join(str(i) for i in wires.injections)}"))
    return lines


def _connector_lines(layout: Layout, wires: Routes, chain: ChainPlan) -> list[Line]:
    """The plugs that let the plate and the enclosure come apart, and the chain's plug-in leads."""
    sensors = layout.profile.sensors
    lines = [Line(len(wires.injections), "pcs", "lever connector, 3-way", "0.2-4 mm², 20 A",
                  "each power feed onto a string's power tails, unsoldered", "Wago 221-413", "connectors"),
             Line(len(wires.injections), "pcs", "2-pin plug and socket pair, pre-wired", "JST-SM 2-pin or XT30, 5 A",
                  "each power feed, at the enclosure: the plate unplugs", "", "connectors"),
             Line(1, "pcs", "Dupont jumper wires, female", "20 cm, 10 of them", "panel buttons, encoder and "
                  "piezo onto the Pi's header: unplugged to lift the plate", "", "connectors")]
    for what, mm in chain.leads:
        lines.append(Line(1, "pcs", "LED extension lead, 3-core", f"JST-SM 3-pin plug and socket, {mm / 1000:g} m",
                          what, "", "connectors"))
    if chain.spliced:
        lines.append(Line(chain.spliced, "pcs", "3-core wire, red/white/green", "22 AWG, 0.5 m",
                          "the extensions spliced into a string where a hop is longer than its wire (bom.md lists "
                          "them)", "", "connectors"))
    if chain.ring_pigtail:
        lines.append(Line(1, "pcs", "JST-SM 3-pin pigtail", "socket side, 15 cm", "soldered to the ring board's "
                          "DIN, 5 V and GND", "", "connectors"))
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        hops = [math.dist(a, b) for a, b in zip(wires.i2c, wires.i2c[1:], strict=False)]
        lines.append(Line(max(0, len(hops) - 1), "pcs", "STEMMA QT / Qwiic cable", "JST-SH 4-pin, 500 mm",
                          "board to board", "SparkFun PRT-14429", "connectors"))
        lines.append(Line(1, "pcs", "STEMMA QT / Qwiic to female sockets", "JST-SH 4-pin, 150 mm; extended with a "
                          "Qwiic cable if the first board is farther", "Pico H GP4 (SDA), GP5 (SCL), 3V3, GND: "
                          "the plate unplugs here", "Adafruit 4397", "connectors"))
    return lines


def _mechanics(layout: Layout) -> list[Line]:
    f = layout.frame
    supports = sum(1 for p in layout.parts if p.kind is PartKind.SUPPORT)
    mounts = sum(1 for p in layout.parts if p.kind is PartKind.MOUNT)
    return [
        Line(1, "pcs", "base plate", f"plywood or MDF, {f.width:g} × {f.height:g} × 4 mm", "drill-a4.pdf / drill.dxf",
             group="mechanics"),
        Line(_metres(2 * (f.width + f.height) + 2 * f.width), "m", "batten", "20 × 40 mm",
             "the frame under the plate's edge, the panel rail and the middle rail", group="mechanics"),
        Line(supports, "pcs", "support block", "30 × 30 mm, as tall as the rail's top to the plate",
             "glued under the plate on the middle rail at the marks of drill-a4.pdf", group="mechanics"),
        Line(mounts, "pcs", "threaded insert and screw", "M4 insert for wood, M4 × 12 countersunk screw",
             "the plate onto the frame through the printed marks in the margin: it lifts off", group="mechanics"),
        Line(1, "pcs", "enclosure box", "ABS, about 160 × 90 × 45 mm, with 2 cable glands PG7",
             "under the panel; the supply's and the Pi's leads come in through the glands, never through the print",
             group="mechanics"),
        Line(1, "pcs", "paper for the map", "160 g/m² matt, A4 or A3 (map-a4.pdf / map-a3.pdf)", "the printed map",
             group="mechanics"),
        Line(1, "pcs", "laminating film, matt, self-adhesive", f"{f.width:g} × {f.height:g} mm or sheets",
             "over the print", group="mechanics"),
    ]


def _consumables(layout: Layout) -> list[Line]:
    return [Line(1, "pcs", part, values, where, group="consumables") for part, values, where in (
        ("solder", "0.8 mm, flux-cored", "every joint"),
        ("heat-shrink tubing", "assorted 2-6 mm", "each splice and pigtail"),
        ("spray adhesive, repositionable", "one can", "the map onto the plate"),
        ("hot glue sticks", "7 mm", "pixels and wires held in place"),
        ("double-sided foam tape", "1 m", "the MPR121 boards and the ring board under the plate"),
        ("masking or aluminium tape", "1 roll", "wires along the plate, every 15 cm"),
        ("cable ties", "100 × 2.5 mm", "the bundles into the enclosure"),
    )]


TOOLS = [Line(1, "pcs", part, values, where, group="tools") for part, values, where in (
    ("soldering iron", "temperature controlled, 2 mm chisel tip", ""),
    ("wire stripper and side cutters", "for 14-26 AWG", ""),
    ("multimeter", "with continuity beep", "the short check between 5 V and ground before power"),
    ("current-limited supply", "a bench supply at 5 V, 0.5 A limit, or a USB meter with a 1 A limit",
     "the first power-up"),
    ("drill", "with 3, 4.5, 7 and 12 mm bits (12 mm Forstner or step bit)", "the holes"),
    ("hole saw", "67 mm, or a coping saw", "the ring board's hole"),
    ("craft knife and steel ruler", "", "trimming the map tiles, cutting the copper pads"),
)]
