"""Board profiles: how one physical board is built (LED indices, sensor wiring, pins, strip and power settings).

A profile is a TOML file (format documented in hardware/README.md). It is validated completely before any device
is opened, and every error names the file, the key and the fix, because the person reading it is a builder with a
soldering iron who cannot debug the referee to find out which wire is wrong.
"""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from pathlib import Path
from typing import Any

from conquista.errors import ProfileError as ProfileError
from conquista.hardware.profile_fields import FieldReader, join
from conquista.rules.mapdata import GameMap, load_map
from conquista.rules.records import frozen_record
from conquista.rules.textdata import BadText, load_toml, package_text, read_utf8, shown

DEFAULT_PROFILE = "classic-42"
PROFILE_FORMAT = 1

DICE_PER_SIDE = 3
PIPS_PER_DIE = 7
# The order of the 7 pip LEDs of a die in a profile: reading order of the pip positions on a die face.
PIP_NAMES = ("top_left", "top_right", "middle_left", "centre", "middle_right", "bottom_left", "bottom_right")

# BCM numbers of the GPIOs on the 40-pin header. 0 and 1 are left out: they carry the HAT ID EEPROM bus, and the
# firmware probes them at boot, so a switch there can stop a HAT from being recognised.
HEADER_GPIOS = frozenset(range(2, 28))
PICO_GPIOS = frozenset(range(0, 29))

# GPIO → (PWM/PCM/SPI channel) that rpi-ws281x can drive from the Pi. Channel 1 is the second PWM; every other pin
# uses channel 0 (the SPI and PCM outputs have a single channel).
WS281X_PINS: dict[int, int] = {12: 0, 18: 0, 13: 1, 19: 1, 21: 0, 10: 0}
COLOR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
# Currents in mA: a supply of up to 100 A, a colour channel of up to 100 mA (a WS2812B's is 20), an idle LED of up
# to 10 mA. Infinite or absurd values would turn the current limit off or darken the board.
SUPPLY_MA_RANGE = (1.0, 100_000.0)
CHANNEL_MA_RANGE = (0.001, 100.0)
IDLE_MA_RANGE = (0.0, 10.0)
# DMA channel 5 is used by the SD card driver on recent kernels: rpi-ws281x on it corrupts the file system.
FORBIDDEN_DMA = frozenset({5})


class SensorKind(StrEnum):
    SERIAL = "serial"  # a diode matrix scanned by the Pico, reported over USB serial
    GPIO = "gpio"  # one Pi GPIO per territory, read with gpiozero


class SensorPart(StrEnum):
    """What the Pico scans for a "serial" source. Both report keys over the same link: key = row × cols + col."""

    MATRIX = "matrix"  # switches in a diode matrix: rows × cols lines on the Pico's GPIOs
    MPR121 = "mpr121"  # capacitive pads under the print, 12 per MPR121 board on the Pico's I2C: rows = boards


# An MPR121 has 12 electrodes and four I2C addresses (0x5A-0x5D, set by its ADDR pin), so at most 4 on one bus.
MPR121_ELECTRODES = 12
MPR121_ADDRESSES = (0x5A, 0x5B, 0x5C, 0x5D)


class StripDriver(StrEnum):
    WS281X = "ws281x"  # rpi-ws281x on the Pi (Pi 1-4)
    PICO = "pico"  # the Pico drives the chain with PIO; frames go over the serial link (needed on a Pi 5)


@frozen_record
class StripSettings:
    """The LED chain: its driver, length and wiring, and the current its supply and LEDs allow."""

    driver: StripDriver
    length: int
    data_pin: int  # a Pi GPIO for ws281x, a Pico GP number for pico
    dma: int
    channel: int
    frequency_hz: int
    invert: bool
    color_order: str  # order of the colour bytes on the wire, one of COLOR_ORDERS
    brightness: int  # 0-255, applied in software before the current limiter
    supply_ma: float  # current the LED supply may deliver to the chain
    ma_per_channel: float  # current of one colour channel at full value
    idle_ma_per_led: float  # quiescent current of one LED that shows black


@frozen_record
class SensorSettings:
    """The territory sensors: a key matrix on the Pico, or one Pi GPIO each, and which is whose."""

    kind: SensorKind
    rows: int  # matrix size (serial); 0 for gpio. For an mpr121 part: the boards, and cols = 12 electrodes
    cols: int
    debounce_ms: int
    # Per territory index: the matrix key index (row * cols + col) for serial, the BCM GPIO for gpio.
    key_of_territory: tuple[int, ...]
    pin_of_territory: tuple[int, ...]
    part: SensorPart = SensorPart.MATRIX

    @property
    def keys(self) -> int:
        """Number of key indices of the matrix (rows × cols)."""
        return self.rows * self.cols


@frozen_record
class ButtonPins:
    """The GPIOs of ROLL, CANCEL and NEXT, and their debounce."""

    roll: int
    cancel: int
    next: int
    bounce_ms: int


@frozen_record
class EncoderPins:
    """The rotary encoder's GPIOs: its two phases and its push."""

    a: int
    b: int
    push: int


@frozen_record(eq=False)
class BoardProfile:
    """A validated board. Territories are addressed by map index, like everywhere inside the referee."""

    name: str
    source: str
    game_map: GameMap
    strip: StripSettings
    territory_leds: tuple[tuple[int, ...], ...]  # by territory index, 1-3 LED indices each
    dice_attack: tuple[tuple[int, ...], ...]  # 3 dice × 7 LED indices in PIP_NAMES order
    dice_defence: tuple[tuple[int, ...], ...]
    ring: tuple[int, ...]  # status ring LED indices, in display order (clockwise from the top)
    sensors: SensorSettings
    buttons: ButtonPins
    encoder: EncoderPins
    buzzer_pin: int | None
    buzzer_muted: bool = False  # [buzzer] muted = true: the piezo stays wired but silent
    # [power] shutdown_command: run after a power-off asked at the board (NEXT held 5 s, ROLL), as argv words
    shutdown_command: tuple[str, ...] | None = None

    def territory_of_key(self, key: int) -> int | None:
        """Territory index wired to matrix key `key`, or None for an unused cell (serial sensors only)."""
        return self._territory_by_key.get(key)

    def territory_of_pin(self, pin: int) -> int | None:
        return self._territory_by_pin.get(pin)

    def __post_init__(self) -> None:
        by_key = {k: t for t, k in enumerate(self.sensors.key_of_territory)}
        by_pin = {p: t for t, p in enumerate(self.sensors.pin_of_territory)}
        object.__setattr__(self, "_territory_by_key", by_key)
        object.__setattr__(self, "_territory_by_pin", by_pin)

    _territory_by_key: dict[int, int] = field(init=False, repr=False)
    _territory_by_pin: dict[int, int] = field(init=False, repr=False)


def load_profile(path: str | Path | None = None, game_map: GameMap | None = None) -> BoardProfile:
    """Load and validate a board profile; with no path, the reference `classic-42` profile shipped in the package.

    `game_map` is the map the game uses (default: the built-in map); the profile must cover exactly its territories.
    """
    data, source = read_profile_data(path)
    return parse_profile(data, source, game_map)


# The profiles shipped in the package, loadable by name (--board classic-42-touch): the reference build with
# capacitive pads, and the diode-matrix build.
BUILT_IN = ("classic-42", "classic-42-touch")


def read_profile_data(path: str | Path | None = None) -> tuple[dict[str, Any], str]:
    """The raw TOML of a profile (not yet validated) and the name errors give it; None is the reference profile,
    a built-in's name (no such file in the current folder) that built-in."""
    if path is None or (str(path) in BUILT_IN and not Path(path).exists()):
        name = DEFAULT_PROFILE if path is None else str(path)
        text = package_text("conquista.data.boards", f"{name}.toml")
        source = f"<built-in {name}.toml>"
    else:
        source = str(path)
        try:
            text = read_utf8(path)
        except OSError as exc:
            raise ProfileError(
                f"{source}: cannot read board profile ({exc.strerror}); check the --board path"
            ) from None
        except BadText as exc:
            raise ProfileError(f"{source}: not a board profile: {exc}") from None
    try:
        return load_toml(text), source
    except BadText as exc:
        raise ProfileError(f"{source}: {exc}") from None


def parse_profile(data: dict[str, Any], source: str, game_map: GameMap | None = None) -> BoardProfile:
    """Validate profile data already read from TOML; `source` names the file in every error."""
    return _Parser(source, game_map).parse(data)


_TOP_KEYS = {"format", "name", "map", "strip", "sensors", "buttons", "encoder", "buzzer", "dice", "ring",
             "territories", "power"}
_STRIP_KEYS = {"driver", "length", "data_pin", "dma", "channel", "frequency_hz", "invert", "color_order",
               "brightness", "supply_ma", "ma_per_channel", "idle_ma_per_led"}
_SENSOR_KEYS = {"source", "part", "rows", "cols", "debounce_ms"}
_BUTTON_KEYS = {"roll", "cancel", "next", "bounce_ms"}
_ENCODER_KEYS = {"a", "b", "push"}


class _Parser(FieldReader):
    def __init__(self, source: str, game_map: GameMap | None) -> None:
        super().__init__(source)
        self.game_map = game_map
        # LED index → who owns it, and GPIO → who uses it, so a clash names both owners.
        self.led_owner: dict[int, str] = {}
        self.pin_owner: dict[int, str] = {}

    def leds(self, value: Any, key: str, length: int, owner: str, count: tuple[int, int]) -> tuple[int, ...]:
        lo, hi = count
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(key, f"must be a list of LED indices, got {shown(value)}", "write it as [12, 13]")
        if not lo <= len(value) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise self.fail(key, f"has {len(value)} LEDs", f"give it {want} LED indices")
        for index in value:
            if not 0 <= index < length:
                raise self.fail(key, f"LED {shown(index)} is beyond the strip (strip.length = {length}, so "
                                f"0..{length - 1})",
                                "fix the index or raise strip.length to the number of LEDs in the chain")
            if index in self.led_owner:
                raise self.fail(key, f"LED {index} is also used by {self.led_owner[index]}",
                                "give each LED index to one owner only")
            self.led_owner[index] = owner
        return tuple(value)

    def pin(self, data: dict[str, Any], key: str, where: str, owner: str) -> int:
        full = join(where, key)
        pin = self.integer(data, key, where, 0, 27)
        return self.claim_pin(pin, full, owner)

    def claim_pin(self, pin: int, key: str, owner: str) -> int:
        if pin not in HEADER_GPIOS:
            raise self.fail(key, f"GPIO{pin} is reserved for the HAT ID EEPROM",
                            "use a GPIO from 2 to 27 (BCM numbering)")
        if pin in self.pin_owner:
            raise self.fail(key, f"GPIO{pin} is also used by {self.pin_owner[pin]}", "give each GPIO one job only")
        self.pin_owner[pin] = owner
        return pin

    # -- sections ------------------------------------------------------------------------------------------------

    def parse(self, data: dict[str, Any]) -> BoardProfile:
        self.no_unknown(data, "", _TOP_KEYS)
        fmt = self.integer(data, "format", "", 1, PROFILE_FORMAT, default=PROFILE_FORMAT)
        del fmt  # only one format exists; the key reserves the right to change it
        name = data.get("name", Path(self.source).stem)
        if not isinstance(name, str):
            raise self.fail("name", f"must be a string, got {shown(name)}", 'write name = "my-board"')
        game_map = self.game_map if self.game_map is not None else load_map()
        map_name = data.get("map", game_map.name)
        if map_name != game_map.name:
            raise self.fail("map", f"the profile is for map {shown(map_name)} but the game uses map {game_map.name!r}",
                            "load the matching map or set map to the game's map and list its territories")

        strip = self.strip(self.table(data, "strip", "", _STRIP_KEYS))
        sensor_table = self.table(data, "sensors", "", _SENSOR_KEYS)
        kind = SensorKind(self.word(sensor_table, "source", "sensors", tuple(k.value for k in SensorKind)))
        buttons = self.buttons(self.table(data, "buttons", "", _BUTTON_KEYS))
        encoder = self.encoder(self.table(data, "encoder", "", _ENCODER_KEYS))
        buzzer_pin, buzzer_muted = None, False
        if "buzzer" in data:
            buzzer_table = self.table(data, "buzzer", "", {"pin", "muted"})
            buzzer_pin = self.pin(buzzer_table, "pin", "buzzer", "buzzer.pin")
            buzzer_muted = self.boolean(buzzer_table, "muted", "buzzer", default=False)
        shutdown = self.shutdown(self.table(data, "power", "", {"shutdown_command"})) if "power" in data else None
        attack, defence = self.dice(self.table(data, "dice", "", {"attack", "defence"}), strip.length)
        ring_table = self.table(data, "ring", "", {"leds"})
        if "leds" not in ring_table:
            raise self.fail("ring.leds", "missing", "list the status ring's LED indices clockwise from the top")
        ring = self.leds(ring_table["leds"], "ring.leds", strip.length, "ring.leds", (1, strip.length))
        territory_leds, sensors = self.territories(data, game_map, strip.length, kind, sensor_table)
        return BoardProfile(
            name=name, source=self.source, game_map=game_map, strip=strip, territory_leds=territory_leds,
            dice_attack=attack, dice_defence=defence, ring=ring, sensors=sensors, buttons=buttons,
            encoder=encoder, buzzer_pin=buzzer_pin, buzzer_muted=buzzer_muted, shutdown_command=shutdown,
        )

    def strip(self, t: dict[str, Any]) -> StripSettings:
        driver = StripDriver(self.word(t, "driver", "strip", tuple(d.value for d in StripDriver)))
        length = self.integer(t, "length", "strip", 1, 2700)
        if driver is StripDriver.WS281X:
            data_pin = self.integer(t, "data_pin", "strip", 0, 27)
            if data_pin not in WS281X_PINS:
                raise self.fail("strip.data_pin", f"rpi-ws281x cannot drive GPIO{data_pin}",
                                "use GPIO18 (PWM, the usual choice), 12, 13, 19 (PWM), 21 (PCM) or 10 (SPI)")
            self.claim_pin(data_pin, "strip.data_pin", "strip.data_pin")
            channel = self.integer(t, "channel", "strip", 0, 1, default=WS281X_PINS[data_pin])
            if channel != WS281X_PINS[data_pin]:
                raise self.fail("strip.channel", f"GPIO{data_pin} is on channel {WS281X_PINS[data_pin]}, not {channel}",
                                f"set channel = {WS281X_PINS[data_pin]} or remove the key")
        else:
            data_pin = self.integer(t, "data_pin", "strip", 0, 28)
            channel = self.integer(t, "channel", "strip", 0, 1, default=0)
        dma = self.integer(t, "dma", "strip", 0, 14, default=10)
        if dma in FORBIDDEN_DMA:
            raise self.fail("strip.dma", f"DMA channel {dma} is used by the SD card and corrupts it",
                            "use the default, dma = 10")
        idle = self.number(t, "idle_ma_per_led", "strip", *IDLE_MA_RANGE, default=1.0)
        supply = self.number(t, "supply_ma", "strip", *SUPPLY_MA_RANGE)
        if supply <= idle * length:
            raise self.fail("strip.supply_ma", f"{supply:g} mA does not even cover {length} idle LEDs "
                            f"({idle:g} mA each = {idle * length:g} mA)",
                            "raise supply_ma to your supply's rating (see hardware/README.md, power budget)")
        return StripSettings(
            driver=driver,
            length=length,
            data_pin=data_pin,
            dma=dma,
            channel=channel,
            frequency_hz=self.integer(t, "frequency_hz", "strip", 400_000, 800_000, default=800_000),
            invert=self.boolean(t, "invert", "strip", default=False),
            color_order=self.word(t, "color_order", "strip", COLOR_ORDERS, default="GRB", upper=True),
            brightness=self.integer(t, "brightness", "strip", 0, 255, default=255),
            supply_ma=supply,
            ma_per_channel=self.number(t, "ma_per_channel", "strip", *CHANNEL_MA_RANGE, default=20.0),
            idle_ma_per_led=idle,
        )

    def buttons(self, t: dict[str, Any]) -> ButtonPins:
        return ButtonPins(
            roll=self.pin(t, "roll", "buttons", "buttons.roll"),
            cancel=self.pin(t, "cancel", "buttons", "buttons.cancel"),
            next=self.pin(t, "next", "buttons", "buttons.next"),
            bounce_ms=self.integer(t, "bounce_ms", "buttons", 0, 500, default=20),
        )

    def encoder(self, t: dict[str, Any]) -> EncoderPins:
        return EncoderPins(
            a=self.pin(t, "a", "encoder", "encoder.a"),
            b=self.pin(t, "b", "encoder", "encoder.b"),
            push=self.pin(t, "push", "encoder", "encoder.push"),
        )

    def dice(self, t: dict[str, Any], length: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        sides = []
        for side in ("attack", "defence"):
            key = f"dice.{side}"
            value = t.get(side)
            if not isinstance(value, list) or len(value) != DICE_PER_SIDE:
                raise self.fail(key, f"must list {DICE_PER_SIDE} dice, got {shown(value)}",
                                f"write {side} = [[7 LEDs of die 1], [die 2], [die 3]], pips in the order "
                                f"{', '.join(PIP_NAMES)}")
            sides.append(tuple(
                self.leds(die, f"{key}[{d}]", length, f"{key}[{d}]", (PIPS_PER_DIE, PIPS_PER_DIE))
                for d, die in enumerate(value)
            ))
        return sides[0], sides[1]

    def territories(self, data: dict[str, Any], game_map: GameMap, length: int, kind: SensorKind,
                    sensor_table: dict[str, Any]) -> tuple[tuple[tuple[int, ...], ...], SensorSettings]:
        table = self.table(data, "territories", "", None)
        debounce = self.integer(sensor_table, "debounce_ms", "sensors", 1, 255, default=10)  # the protocol: 1..255
        part = SensorPart.MATRIX
        if kind is SensorKind.SERIAL:
            part = SensorPart(self.word(sensor_table, "part", "sensors", tuple(p.value for p in SensorPart),
                                        default=SensorPart.MATRIX.value))
            rows, cols = self.serial_size(sensor_table, part)
        else:
            for k in ("rows", "cols", "part"):
                if k in sensor_table:
                    raise self.fail(f"sensors.{k}", "only a serial source (the Pico) has rows, cols and part",
                                    f"remove sensors.{k} or set sensors.source = \"serial\"")
            rows = cols = 0
        known = {t.id for t in game_map.territories}
        for tid in table:
            if tid not in known:
                raise self.fail(f"territories.{tid}", f"map {game_map.name!r} has no territory {tid!r}",
                                "fix the spelling (ids are lower_snake_case English names) or remove the entry")
        sensor_key = "cell" if kind is SensorKind.SERIAL else "pin"
        leds: list[tuple[int, ...]] = []
        keys: list[int] = []
        pins: list[int] = []
        cell_owner: dict[tuple[int, int], str] = {}
        for territory in game_map.territories:
            where = f"territories.{territory.id}"
            if territory.id not in table:
                raise self.fail(where, "missing: every territory of the map needs LEDs and a sensor",
                                f"add `{territory.id} = {{ leds = [..], {sensor_key} = .. }}` under [territories]")
            entry = table[territory.id]
            if not isinstance(entry, dict):
                raise self.fail(where, f"must be a table, got {shown(entry)}",
                                f"write `{territory.id} = {{ leds = [..], {sensor_key} = .. }}`")
            self.no_unknown(entry, where, {"leds", sensor_key})
            if "leds" not in entry:
                raise self.fail(f"{where}.leds", "missing", "give the territory 1 to 3 LED indices")
            leds.append(self.leds(entry["leds"], f"{where}.leds", length, f"territory {territory.id!r}", (1, 3)))
            if sensor_key not in entry:
                how = "its matrix cell [row, col]" if kind is SensorKind.SERIAL else "the GPIO of its sensor"
                raise self.fail(f"{where}.{sensor_key}", "the territory has no sensor", f"add {sensor_key} = {how}")
            if kind is SensorKind.SERIAL:
                row, col = self.cell(entry["cell"], f"{where}.cell", rows, cols, cell_owner)
                cell_owner[(row, col)] = f"territory {territory.id!r}"
                keys.append(row * cols + col)
            else:
                pins.append(self.pin(entry, "pin", where, f"the sensor of territory {territory.id!r}"))
        sensors = SensorSettings(kind=kind, rows=rows, cols=cols, debounce_ms=debounce,
                                 key_of_territory=tuple(keys), pin_of_territory=tuple(pins), part=part)
        return tuple(leds), sensors

    def serial_size(self, t: dict[str, Any], part: SensorPart) -> tuple[int, int]:
        """rows × cols of a matrix; boards × 12 electrodes of MPR121 touch boards."""
        if part is SensorPart.MATRIX:
            return self.integer(t, "rows", "sensors", 1, 16), self.integer(t, "cols", "sensors", 1, 16)
        boards = self.integer(t, "rows", "sensors", 1, len(MPR121_ADDRESSES))
        electrodes = self.integer(t, "cols", "sensors", 1, 16, default=MPR121_ELECTRODES)
        if electrodes != MPR121_ELECTRODES:
            raise self.fail("sensors.cols", f"an MPR121 has {MPR121_ELECTRODES} electrodes, not {electrodes}",
                            f"set cols = {MPR121_ELECTRODES} or remove it (rows is the number of MPR121 boards)")
        return boards, electrodes

    def cell(self, cell: Any, key: str, rows: int, cols: int, owner: dict[tuple[int, int], str]) -> tuple[int, int]:
        """A territory's matrix cell [row, col]: inside the matrix and no other territory's."""
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
            raise self.fail(key, f"must be [row, col], got {shown(cell)}", "write cell = [2, 5]")
        row, col = cell
        if not (0 <= row < rows and 0 <= col < cols):
            raise self.fail(key, f"[{shown(row)}, {shown(col)}] is outside the {rows}×{cols} matrix",
                            f"use a row 0..{rows - 1} and a column 0..{cols - 1}, or enlarge sensors.rows/cols")
        if (row, col) in owner:
            raise self.fail(key, f"[{row}, {col}] is also the sensor of {owner[(row, col)]}",
                            "give each territory its own matrix cell")
        return row, col
