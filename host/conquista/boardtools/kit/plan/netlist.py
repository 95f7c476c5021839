"""The board's electronics as a netlist, generated from the profile and the Pico's pins: every part with its pins
and each pin's electrical kind, every net with the pins it joins and where its wire runs. `schematic.pdf` draws it,
`wiring.pdf` draws a wire for each of its nets, and `erc` checks it the way a schematic editor's electrical-rules
check does (the tests also run SKiDL's ERC on it), so the drawings cannot drift from the profile.

What is modelled: the LED supply's jack, the fuse and the 1000 µF; the shifter board (74AHCT125 with all 14 pins,
its 100 nF, the 330 Ω) and the first pixel's input plug; the Pi's and the Pico's header pins in use; the MPR121
boards on I2C with their pads (or the matrix's keys, or GPIO switches); the power feeds; the panel's buttons,
encoder and piezo. A key of the matrix is one part, a switch with its 1N4148 in series (band towards the row): the
joint between the two is on the key, not a wire of the board. The Pico's USB link to the Pi is a cable, not a net.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from conquista.hardware.profile import MPR121_ELECTRODES, BoardProfile, SensorKind, SensorPart, StripDriver


class PinKind(StrEnum):
    INPUT = "input"
    OUTPUT = "output"
    BIDIR = "bidirectional"
    PASSIVE = "passive"
    POWER_IN = "power in"
    POWER_OUT = "power out"
    OPEN = "not connected"     # left open on purpose (an unused gate's output, a pin pulled on its board)


DRIVERS = (PinKind.OUTPUT, PinKind.BIDIR, PinKind.POWER_OUT)


class Place(StrEnum):
    """Where a part sits, which sets where its wires are drawn."""

    ENCLOSURE = "enclosure"    # under the panel: supply inlet, fuse, Pi, Pico
    SHIFTER = "shifter board"  # near LED 0 (or in the enclosure when LED 0 is near it)
    PLATE = "plate"            # under the plate: pads, MPR121 boards, keys, the chain's plugs, the power feeds
    PANEL = "panel"            # buttons, encoder


class Run(StrEnum):
    """The kind of wire a net is drawn as on the board page of wiring.pdf (LOCAL: on the parts page only)."""

    LOCAL = "local"
    LEAD = "lead"              # the enclosure to the shifter board
    DATA = "data"              # the shifter board to LED 0's DIN
    FEED = "feed"              # 5 V and ground to the chain's feed points
    I2C = "i2c"                # the Pico through the MPR121 boards
    PAD = "pad"                # a touch pad to its electrode
    MATRIX = "matrix"          # a row or a column wire, or a GPIO switch's wire
    PANEL = "panel"            # the Pi's header to a button, the encoder, the piezo


@dataclass(frozen=True)
class Pin:
    number: str
    name: str
    kind: PinKind


@dataclass(frozen=True)
class Part:
    ref: str
    name: str
    value: str
    place: Place
    pins: tuple[Pin, ...]

    def pin(self, number: str) -> Pin:
        return next(p for p in self.pins if p.number == number)


@dataclass(frozen=True)
class Net:
    name: str
    nodes: tuple[tuple[str, str], ...]     # (part ref, pin number)
    runs: tuple[Run, ...] = (Run.LOCAL,)   # every kind of wire this net is drawn as


@dataclass(frozen=True)
class Netlist:
    parts: tuple[Part, ...]
    nets: tuple[Net, ...]
    shifter_remote: bool = True     # the shifter board is near LED 0, not in the enclosure

    def part(self, ref: str) -> Part:
        return next(p for p in self.parts if p.ref == ref)

    def net(self, name: str) -> Net:
        return next(n for n in self.nets if n.name == name)

    def net_of(self) -> dict[tuple[str, str], str]:
        return {node: net.name for net in self.nets for node in net.nodes}


# The Pi's header pin of each BCM GPIO, and the Pico's pin of each GP (its ground pins are 3, 8, 13, ...).
PI_HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35,
             26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40}
PI_GND = "6"
PICO_PIN = {gp: pin for gp, pin in zip(
    (*range(0, 23), 26, 27, 28),
    (1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 29, 31, 32, 34), strict=True)}
PICO_3V3, PICO_GND = "36", "38"


def _pins(*spec: tuple[str, str, PinKind]) -> tuple[Pin, ...]:
    return tuple(Pin(number, name, kind) for number, name, kind in spec)


P, IN, OUT, B, PI, PO, X = (PinKind.PASSIVE, PinKind.INPUT, PinKind.OUTPUT, PinKind.BIDIR, PinKind.POWER_IN,
                             PinKind.POWER_OUT, PinKind.OPEN)


def _shifter(place: Place) -> Part:
    return Part("U1", "74AHCT125", "quad buffer, 5 V", place, _pins(
        ("1", "1OE", IN), ("2", "1A", IN), ("3", "1Y", OUT), ("4", "2OE", IN), ("5", "2A", IN), ("6", "2Y", X),
        ("7", "GND", PI), ("8", "3Y", X), ("9", "3A", IN), ("10", "3OE", IN), ("11", "4Y", X), ("12", "4A", IN),
        ("13", "4OE", IN), ("14", "VCC", PI)))


def netlist(profile: BoardProfile, pins: Any, shifter_remote: bool = True) -> Netlist:
    """The board's netlist. `pins` are the Pico's (rows, cols, led_pin, sda, scl: the firmware's config.json);
    `shifter_remote`: the shifter board is near LED 0 (its 5 V, ground and 3.3 V data come over the lead)."""
    from conquista.boardtools.kit.plan.bom import fuse_amps

    fuse_a = fuse_amps(profile.strip.supply_ma)
    strip = profile.strip
    sensors = profile.sensors
    pico_needed = sensors.kind is SensorKind.SERIAL or strip.driver is StripDriver.PICO
    shifter_place = Place.SHIFTER if shifter_remote else Place.ENCLOSURE
    parts: list[Part] = [
        Part("J1", "DC jack", "5.5 × 2.1 mm, the LED supply", Place.ENCLOSURE,
             _pins(("1", "+5V", PO), ("2", "GND", PO))),
        Part("F1", "fuse", f"{fuse_a:g} A slow-blow", Place.ENCLOSURE, _pins(("1", "in", PI), ("2", "out", PO))),
        Part("C1", "capacitor", "1000 µF 10 V", Place.ENCLOSURE, _pins(("1", "+", P), ("2", "−", P))),
        _shifter(shifter_place),
        Part("C2", "capacitor", "100 nF", shifter_place, _pins(("1", "1", P), ("2", "2", P))),
        Part("R1", "resistor", "330 Ω", shifter_place, _pins(("1", "1", P), ("2", "2", P))),
        Part("L0", "LED 0 input plug", "JST-SM, first pixel's DIN", Place.PLATE,
             _pins(("1", "DIN", IN), ("2", "+5V", PI), ("3", "GND", P))),
    ]
    nets: dict[str, list[tuple[str, str]]] = {}
    runs: dict[str, set[Run]] = {}

    def join(name: str, run: Run, *nodes: tuple[str, str]) -> None:
        nets.setdefault(name, []).extend(nodes)
        runs.setdefault(name, set()).add(run)

    lead = Run.LEAD if shifter_remote else Run.LOCAL
    join("+5V_IN", Run.LOCAL, ("J1", "1"), ("F1", "1"))
    join("+5V", Run.LOCAL, ("F1", "2"), ("C1", "1"))
    join("GND", Run.LOCAL, ("J1", "2"), ("C1", "2"))
    join("+5V", lead, ("U1", "14"), ("C2", "1"), ("U1", "4"), ("U1", "10"), ("U1", "13"))
    join("GND", lead, ("U1", "7"), ("C2", "2"), ("U1", "1"), ("U1", "5"), ("U1", "9"), ("U1", "12"))
    join("DATA_5V", Run.LOCAL, ("U1", "3"), ("R1", "1"))
    join("DIN0", Run.DATA, ("R1", "2"), ("L0", "1"))
    join("+5V", Run.FEED, ("L0", "2"))
    join("GND", Run.FEED, ("L0", "3"))
    feeds = sorted({*_feed_leds(profile)} - {min(_all_leds(profile))})
    for led in feeds:
        parts.append(Part(f"PF{led}", f"power feed at LED {led}", "lever connector on the string's tails",
                          Place.PLATE, _pins(("1", "+5V", PI), ("2", "GND", P))))
        join("+5V", Run.FEED, (f"PF{led}", "1"))
        join("GND", Run.FEED, (f"PF{led}", "2"))
    pi_pins: list[tuple[str, str, PinKind]] = [(PI_GND, "GND", P)]
    pico_pins: list[tuple[str, str, PinKind]] = [(PICO_GND, "GND", P)] if pico_needed else []
    if strip.driver is StripDriver.PICO:
        pico_pins.append((str(PICO_PIN[pins.led_pin]), f"GP{pins.led_pin}", OUT))
        join("DATA_3V3", lead, ("U2", str(PICO_PIN[pins.led_pin])), ("U1", "2"))
    else:
        pi_pins.append((str(PI_HEADER[strip.data_pin]), f"GPIO{strip.data_pin}", OUT))
        join("DATA_3V3", lead, ("J2", str(PI_HEADER[strip.data_pin])), ("U1", "2"))
    join("GND", Run.LOCAL, ("J2", PI_GND))
    if pico_needed:
        join("GND", Run.LOCAL, ("U2", PICO_GND))
    _panel(profile, parts, pi_pins, join)
    if sensors.kind is SensorKind.SERIAL and sensors.part is SensorPart.MPR121:
        _touch(profile, pins, parts, pico_pins, join)
    elif sensors.kind is SensorKind.SERIAL:
        _matrix(profile, pins, parts, pico_pins, join)
    else:
        _gpio_switches(profile, parts, pi_pins, join)
    parts.append(Part("J2", "Raspberry Pi header", "40-pin, BCM numbers", Place.ENCLOSURE,
                      _pins(*sorted(pi_pins, key=lambda p: int(p[0])))))
    if pico_needed:
        parts.append(Part("U2", "Raspberry Pi Pico", "USB to the Pi", Place.ENCLOSURE,
                          _pins(*sorted(pico_pins, key=lambda p: int(p[0])))))
    order = list(nets)
    return Netlist(tuple(parts), tuple(Net(name, tuple(nets[name]), tuple(sorted(runs[name]))) for name in order),
                   shifter_remote)


def _all_leds(profile: BoardProfile) -> list[int]:
    panel = [led for die in profile.dice_attack + profile.dice_defence for led in die] + list(profile.ring)
    return [led for leds in profile.territory_leds for led in leds] + panel


def _feed_leds(profile: BoardProfile) -> tuple[int, ...]:
    """As `routes.injection_leds`: the first LED, the panel's first, the last."""
    panel = [led for die in profile.dice_attack + profile.dice_defence for led in die] + list(profile.ring)
    used = _all_leds(profile)
    return tuple(sorted({min(used), min(panel), max(used)}))


def _panel(profile: BoardProfile, parts: list[Part], pi_pins: list[tuple[str, str, PinKind]], join: Any) -> None:
    def gpio(name: str, bcm: int) -> tuple[str, str]:
        pi_pins.append((str(PI_HEADER[bcm]), f"GPIO{bcm}", B))
        return ("J2", str(PI_HEADER[bcm]))

    for ref, name, bcm in (("SW1", "ROLL", profile.buttons.roll), ("SW2", "CANCEL", profile.buttons.cancel),
                           ("SW3", "NEXT", profile.buttons.next)):
        parts.append(Part(ref, f"push button {name}", "12 mm, normally open", Place.PANEL,
                          _pins(("1", "1", P), ("2", "2", P))))
        join(name, Run.PANEL, gpio(name, bcm), (ref, "1"))
        join("GND", Run.PANEL, (ref, "2"))
    enc = profile.encoder
    parts.append(Part("ENC1", "rotary encoder", "EC11 with push switch", Place.PANEL,
                      _pins(("A", "A", P), ("B", "B", P), ("C", "C", P), ("S1", "S1", P), ("S2", "S2", P))))
    join("ENC_A", Run.PANEL, gpio("ENC_A", enc.a), ("ENC1", "A"))
    join("ENC_B", Run.PANEL, gpio("ENC_B", enc.b), ("ENC1", "B"))
    join("ENC_PUSH", Run.PANEL, gpio("ENC_PUSH", enc.push), ("ENC1", "S1"))
    join("GND", Run.PANEL, ("ENC1", "C"), ("ENC1", "S2"))
    if profile.buzzer_pin is not None:
        pi_pins.append((str(PI_HEADER[profile.buzzer_pin]), f"GPIO{profile.buzzer_pin}", OUT))
        parts.append(Part("R2", "resistor", "100 Ω", Place.ENCLOSURE, _pins(("1", "1", P), ("2", "2", P))))
        parts.append(Part("BZ1", "piezo, passive", "12 mm, not magnetic", Place.ENCLOSURE,
                          _pins(("1", "+", P), ("2", "−", P))))
        join("BUZZER", Run.LOCAL, ("J2", str(PI_HEADER[profile.buzzer_pin])), ("R2", "1"))
        join("BUZZER_R", Run.LOCAL, ("R2", "2"), ("BZ1", "1"))
        join("GND", Run.LOCAL, ("BZ1", "2"))


def _touch(profile: BoardProfile, pins: Any, parts: list[Part], pico_pins: list[tuple[str, str, PinKind]],
           join: Any) -> None:
    sensors = profile.sensors
    game_map = profile.game_map
    pico_pins += [(str(PICO_PIN[pins.sda]), f"GP{pins.sda} SDA", B),
                  (str(PICO_PIN[pins.scl]), f"GP{pins.scl} SCL", OUT), (PICO_3V3, "3V3 OUT", PO)]
    join("SDA", Run.I2C, ("U2", str(PICO_PIN[pins.sda])))
    join("SCL", Run.I2C, ("U2", str(PICO_PIN[pins.scl])))
    join("+3V3", Run.I2C, ("U2", PICO_3V3))
    used = {key: game_map.id(t) for t, key in enumerate(sensors.key_of_territory)}
    # ADDR: open on board 0 (pulled down there: 0x5A), then 3V3, SDA, SCL (0x5B-0x5D).
    addr_net = ("", "+3V3", "SDA", "SCL")
    for b in range(sensors.rows):
        ref = f"B{b}"
        electrodes = [(f"E{e}", f"E{e}", P if b * MPR121_ELECTRODES + e in used else X)
                      for e in range(MPR121_ELECTRODES)]
        parts.append(Part(ref, "MPR121 touch board", f"I2C 0x{0x5A + b:X}", Place.PLATE, _pins(
            ("VIN", "VIN", PI), ("GND", "GND", P), ("SDA", "SDA", B), ("SCL", "SCL", IN),
            ("ADDR", "ADDR", X if b == 0 else IN), ("IRQ", "IRQ", X), *electrodes)))
        join("SDA", Run.I2C, (ref, "SDA"))
        join("SCL", Run.I2C, (ref, "SCL"))
        join("+3V3", Run.I2C, (ref, "VIN"))
        join("GND", Run.I2C, (ref, "GND"))
        if b:
            join(addr_net[b], Run.LOCAL, (ref, "ADDR"))
    for key, tid in sorted(used.items()):
        board, e = divmod(key, MPR121_ELECTRODES)
        parts.append(Part(f"TP_{tid}", f"touch pad {tid}", "copper tape", Place.PLATE, _pins(("1", "pad", P))))
        join(f"PAD_{tid}", Run.PAD, (f"TP_{tid}", "1"), (f"B{board}", f"E{e}"))


def _matrix(profile: BoardProfile, pins: Any, parts: list[Part], pico_pins: list[tuple[str, str, PinKind]],
            join: Any) -> None:
    sensors = profile.sensors
    game_map = profile.game_map
    for r in range(sensors.rows):
        pico_pins.append((str(PICO_PIN[pins.rows[r]]), f"GP{pins.rows[r]} row {r}", OUT))
        join(f"ROW{r}", Run.MATRIX, ("U2", str(PICO_PIN[pins.rows[r]])))
    for c in range(sensors.cols):
        pico_pins.append((str(PICO_PIN[pins.cols[c]]), f"GP{pins.cols[c]} col {c}", IN))
        join(f"COL{c}", Run.MATRIX, ("U2", str(PICO_PIN[pins.cols[c]])))
    for t, key in enumerate(sensors.key_of_territory):
        tid = game_map.id(t)
        r, c = divmod(key, sensors.cols)
        parts.append(Part(f"K_{tid}", f"key {tid}", "switch + 1N4148, band to the row", Place.PLATE,
                          _pins(("1", "col", P), ("2", "row", P))))
        join(f"COL{c}", Run.MATRIX, (f"K_{tid}", "1"))
        join(f"ROW{r}", Run.MATRIX, (f"K_{tid}", "2"))


def _gpio_switches(profile: BoardProfile, parts: list[Part], pi_pins: list[tuple[str, str, PinKind]],
                   join: Any) -> None:
    game_map = profile.game_map
    for t, bcm in enumerate(profile.sensors.pin_of_territory):
        tid = game_map.id(t)
        pi_pins.append((str(PI_HEADER[bcm]), f"GPIO{bcm}", B))
        parts.append(Part(f"S_{tid}", f"switch {tid}", "tactile", Place.PLATE, _pins(("1", "1", P), ("2", "2", P))))
        join(f"SW_{tid}", Run.MATRIX, ("J2", str(PI_HEADER[bcm])), (f"S_{tid}", "1"))
        join("GND", Run.MATRIX, (f"S_{tid}", "2"))


def erc(nl: Netlist) -> list[str]:
    """The electrical-rules check, one line per problem (none: it passes): every node names a real pin; a pin is
    on one net at most; every pin not left open on purpose is on a net, and one left open is on none; a net joins
    two pins at least; a net with an input or a power input has a driver (an output, a bidirectional pin or a power
    output, or a passive pin it is wired through, as a schematic editor counts it); a power input has a power output
    on its net; no two outputs, or an output and a power output, drive one net."""
    problems: list[str] = []
    refs = Counter(p.ref for p in nl.parts)
    problems += [f"{ref}: {n} parts have this reference" for ref, n in refs.items() if n > 1]
    by_ref = {p.ref: p for p in nl.parts}
    seen: dict[tuple[str, str], str] = {}
    for net in nl.nets:
        kinds: list[PinKind] = []
        for ref, number in net.nodes:
            part = by_ref.get(ref)
            pin = next((p for p in part.pins if p.number == number), None) if part else None
            if pin is None:
                problems.append(f"net {net.name}: {ref} pin {number} does not exist")
                continue
            if (ref, number) in seen:
                problems.append(f"{ref} pin {number} ({pin.name}) is on nets {seen[(ref, number)]} and {net.name}")
            seen[(ref, number)] = net.name
            if pin.kind is PinKind.OPEN:
                problems.append(f"net {net.name}: {ref} pin {number} ({pin.name}) is meant to be left open")
            kinds.append(pin.kind)
        if len(net.nodes) < 2:
            problems.append(f"net {net.name}: joins only {len(net.nodes)} pin")
        if any(k is PinKind.INPUT for k in kinds) and not any(k in (*DRIVERS, PinKind.PASSIVE) for k in kinds):
            problems.append(f"net {net.name}: an input and nothing that drives it")
        if any(k is PinKind.POWER_IN for k in kinds) and PinKind.POWER_OUT not in kinds:
            problems.append(f"net {net.name}: a power input and no power output (a supply) on it")
        outputs = sum(1 for k in kinds if k is PinKind.OUTPUT)
        power = sum(1 for k in kinds if k is PinKind.POWER_OUT)
        if outputs > 1 or (outputs and power) or power > 1:
            problems.append(f"net {net.name}: {outputs} outputs and {power} power outputs drive it at once")
    for part in nl.parts:
        for pin in part.pins:
            if pin.kind is not PinKind.OPEN and (part.ref, pin.number) not in seen:
                problems.append(f"{part.ref} pin {pin.number} ({pin.name}) is on no net")
    return problems


def broken(nl: Netlist, net: str, drop: tuple[str, str]) -> Netlist:
    """The netlist with one pin taken off a net (for the tests: a deliberately broken net)."""
    nets = tuple(replace(n, nodes=tuple(x for x in n.nodes if x != drop)) if n.name == net else n for n in nl.nets)
    return replace(nl, nets=nets)

