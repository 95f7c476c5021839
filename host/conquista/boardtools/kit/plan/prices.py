"""Indicative prices for the parts list: what a builder typically pays for one unit (a piece, or a metre) of each
line at hobby-electronics shops, in euros with VAT, as of PRICES_AS_OF. They are stated as indicative in bom.md:
prices move and shops differ; they are here so a builder sees the order of the total before ordering, and so the
list says which lines cost money (every line of the bill has a price: tests/boardtools check it).
"""

from __future__ import annotations

from conquista.boardtools.kit.plan.bom import Line

CURRENCY = "EUR"
PRICES_AS_OF = "December 2026"

# By the line's part (as bom.py names it), EUR per piece or per metre.
UNIT_PRICE = {
    "bullet pixel string, 12 mm, WS2811": 14.00,
    "WS2812B pixel on a round PCB": 0.25,
    "MPR121 capacitive touch board, STEMMA QT / Qwiic": 8.50,
    "copper foil tape, conductive adhesive": 0.80,
    "tactile switch": 0.20,
    "signal diode 1N4148": 0.03,
    "momentary push button": 1.50,
    "rotary encoder with push switch": 2.00,
    "knob": 0.80,
    "piezo transducer, passive": 1.20,
    "resistor": 0.10,
    "level shifter 74AHCT125": 0.80,
    "IC socket": 0.20,
    "ceramic capacitor": 0.10,
    "electrolytic capacitor": 0.40,
    "DC jack, panel mount": 1.00,
    "fuse, slow-blow (T), and panel holder": 3.00,
    "perfboard": 1.50,
    "Raspberry Pi": 67.00,                       # a Pi 4 B 2 GB 50, its supply 9, a 16 GB card 8
    "Raspberry Pi Pico H": 5.00,
    "USB cable": 3.00,
    "lever connector, 3-way": 0.60,
    "2-pin plug and socket pair, pre-wired": 1.00,
    "Dupont jumper wires, female": 2.00,
    "LED extension lead, 3-core": 2.00,
    "3-core wire, red/white/green": 0.80,
    "JST-SM 3-pin pigtail": 0.60,
    "STEMMA QT / Qwiic cable": 1.80,
    "STEMMA QT / Qwiic to female sockets": 1.00,
    "base plate": 12.00,
    "batten": 1.50,
    "support block": 0.50,
    "threaded insert and screw": 0.40,
    "enclosure box": 8.00,
    "paper for the map": 3.00,
    "laminating film, matt, self-adhesive": 6.00,
    "solder": 6.00,
    "heat-shrink tubing": 4.00,
    "spray adhesive, repositionable": 9.00,
    "hot glue sticks": 3.00,
    "double-sided foam tape": 3.00,
    "masking or aluminium tape": 2.00,
    "cable ties": 2.00,
    "soldering iron": 60.00,
    "wire stripper and side cutters": 15.00,
    "multimeter": 20.00,
    "current-limited supply": 40.00,
    "drill": 25.00,                              # the bits, for a drill the builder has
    "hole saw": 8.00,
    "craft knife and steel ruler": 8.00,
}
RING_PRICE = {12: 8.00, 16: 10.00, 24: 17.50}    # Adafruit 1643, 1463, 1586
WIRE_PER_M = {"24 AWG": 0.20, "22 AWG": 0.25, "18 AWG": 0.60, "14 AWG": 1.20}   # the red and black pair for power


def unit_price(line: Line) -> float | None:
    """EUR for one unit of the line (a piece, a metre), or None for a part with no price known."""
    if line.part == "hook-up wire":
        return next((p for gauge, p in WIRE_PER_M.items() if line.values.startswith(gauge)), None)
    if line.part == "power supply for the LEDs":
        amps = float(line.values.split(",")[1].strip().split()[0])
        return 8.0 + 2.0 * amps               # a 5 V 4 A desktop supply about 16
    if line.part.startswith("WS2812B ring board, "):
        return RING_PRICE.get(int(line.part.split(", ")[1].split()[0]))
    if line.part in UNIT_PRICE:
        return UNIT_PRICE[line.part]
    return None


def line_price(line: Line) -> float:
    price = unit_price(line)
    return 0.0 if price is None else price * line.qty
