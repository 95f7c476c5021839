"""The guided calibration as a state machine: which question is asked, what each answer does (pure, no I/O).

Two passes. First each territory is named in turn and the matrix key pressed is recorded (its sensor). Then each
LED of the chain is lit in turn and the territory tapped under it is recorded; NEXT says the LED belongs to the
panel, and panel LEDs are taken in chain order: the 21 pips of the attack dice, the 21 of the defence dice, then
the ring. CANCEL takes the last answer back. The answers are the whole state (`answers`), so a session saved after
each one resumes exactly where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeGuard

from conquista.errors import BoardToolError as BoardToolError
from conquista.errors import CalibrationError as CalibrationError
from conquista.hardware.profile import DICE_PER_SIDE, PIPS_PER_DIE
from conquista.rules.mapdata import GameMap

PANEL = -1                    # an LED answered with NEXT: the dice panel or the ring
MAX_LEDS_PER_TERRITORY = 3
DICE_LEDS = 2 * DICE_PER_SIDE * PIPS_PER_DIE
STATE_FORMAT = 1


@dataclass(frozen=True)
class Reply:
    accepted: bool
    text: str                 # what to tell the builder


class Asked(Enum):
    SENSOR = "sensor"         # tap this territory: its matrix key is recorded
    LED = "led"               # tap the territory under this lit LED, or NEXT for the dice panel and the ring


@dataclass(frozen=True)
class Question:
    kind: Asked
    index: int                # the territory (sensor) or the LED (led)
    text: str


@dataclass
class Calibration:
    game_map: GameMap
    led_count: int
    keys: int                                         # matrix keys (rows × cols)
    sensor_keys: list[int] = field(default_factory=list)   # by territory, in map order
    led_owners: list[int] = field(default_factory=list)    # by LED index: territory or PANEL

    # -- the question -------------------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return len(self.sensor_keys) == self.game_map.size and len(self.led_owners) == self.led_count

    def question(self) -> Question | None:
        if len(self.sensor_keys) < self.game_map.size:
            t = len(self.sensor_keys)
            return Question(Asked.SENSOR, t, f"tap {self._name(t)} ({t + 1} of {self.game_map.size})")
        if len(self.led_owners) < self.led_count:
            i = len(self.led_owners)
            return Question(Asked.LED, i, f"LED {i} of {self.led_count} is lit: tap the territory under it, "
                                      "or NEXT if it is on the dice panel or the ring")
        return None

    # -- answers ------------------------------------------------------------------------------------------------

    def key_pressed(self, key: int) -> Reply:
        question = self.question()
        if question is None:
            return Reply(False, "calibration complete")
        if question.kind is Asked.SENSOR:
            if not 0 <= key < self.keys:
                return Reply(False, f"key {key} is outside the {self.keys}-key matrix; check the wiring")
            if key in self.sensor_keys:
                return Reply(False, f"that sensor is already {self._name(self.sensor_keys.index(key))}'s "
                                    f"(CANCEL takes an answer back); {question.text}")
            self.sensor_keys.append(key)
            return Reply(True, f"{self._name(question.index)}: key {key}")
        if key not in self.sensor_keys:
            return Reply(False, f"key {key} is no territory's sensor; {question.text}")
        return self._led_to(self.sensor_keys.index(key), question)

    def _led_to(self, territory: int, question: Question) -> Reply:
        if self.led_owners.count(territory) >= MAX_LEDS_PER_TERRITORY:
            return Reply(False, f"{self._name(territory)} already has {MAX_LEDS_PER_TERRITORY} LEDs, the most a "
                                f"territory may have; {question.text}")
        self.led_owners.append(territory)
        return Reply(True, f"LED {question.index}: {self._name(territory)}")

    def next_pressed(self) -> Reply:
        question = self.question()
        if question is None or question.kind is not Asked.LED:
            return Reply(False, "NEXT answers only while an LED is lit" if question else "calibration complete")
        self.led_owners.append(PANEL)
        return Reply(True, f"LED {question.index}: {self._panel_role(self.led_owners.count(PANEL) - 1)}")

    def cancel_pressed(self) -> Reply:
        if self.led_owners:
            owner = self.led_owners.pop()
            return Reply(True, f"took back LED {len(self.led_owners)} ({self._owner_name(owner)})")
        if self.sensor_keys:
            key = self.sensor_keys.pop()
            return Reply(True, f"took back {self._name(len(self.sensor_keys))} (key {key})")
        return Reply(False, "nothing to take back")

    # -- the result ---------------------------------------------------------------------------------------------

    def layout(self) -> tuple[list[list[int]], list[list[int]], list[list[int]], list[int]]:
        """(LEDs of each territory, attack dice pips, defence dice pips, ring), checked for a complete board."""
        if not self.done:
            raise CalibrationError("the calibration is not finished")
        territory_leds: list[list[int]] = [[] for _ in range(self.game_map.size)]
        panel: list[int] = []
        for led, owner in enumerate(self.led_owners):
            (panel if owner == PANEL else territory_leds[owner]).append(led)
        dark = [self._name(t) for t, leds in enumerate(territory_leds) if not leds]
        if dark:
            raise CalibrationError(f"no LED was tapped for {', '.join(dark)}; every territory needs one: run "
                                   "again and CANCEL back to its LEDs")
        if len(panel) <= DICE_LEDS:
            raise CalibrationError(f"{len(panel)} LEDs were given to the panel, but the dice alone need "
                                   f"{DICE_LEDS} and the ring at least one; CANCEL back and press NEXT for them")
        pips = [panel[i:i + PIPS_PER_DIE] for i in range(0, DICE_LEDS, PIPS_PER_DIE)]
        return territory_leds, pips[:DICE_PER_SIDE], pips[DICE_PER_SIDE:], panel[DICE_LEDS:]

    def cells(self, cols: int) -> list[tuple[int, int]]:
        return [divmod(key, cols) for key in self.sensor_keys]

    # -- saving and resuming ------------------------------------------------------------------------------------

    def answers(self) -> dict[str, Any]:
        return {"format": STATE_FORMAT, "map": self.game_map.name, "led_count": self.led_count, "keys": self.keys,
                "sensor_keys": list(self.sensor_keys), "led_owners": list(self.led_owners)}

    @classmethod
    def resume(cls, data: object, source: str, game_map: GameMap, led_count: int, keys: int) -> Calibration:
        """A session from saved answers, each checked: a file that does not fit this board is refused by key."""
        def bad(key: str, problem: str) -> CalibrationError:
            return CalibrationError(f"{source}: {key}: {problem}; delete the file to start the calibration over")

        if not isinstance(data, dict):
            raise bad("(top)", "not a saved calibration")
        unknown = set(data) - {"format", "map", "led_count", "keys", "sensor_keys", "led_owners"}
        if unknown:
            raise bad(sorted(unknown)[0], "unknown key")
        expected = {"format": STATE_FORMAT, "map": game_map.name, "led_count": led_count, "keys": keys}
        for name, value in expected.items():
            if data.get(name) != value:
                raise bad(name, f"is {data.get(name)!r}, this board has {value!r}")
        sensor_keys, led_owners = data.get("sensor_keys"), data.get("led_owners")
        if not _int_list(sensor_keys) or len(sensor_keys) > game_map.size:
            raise bad("sensor_keys", f"must be a list of at most {game_map.size} key numbers")
        if not _int_list(led_owners) or len(led_owners) > led_count:
            raise bad("led_owners", f"must be a list of at most {led_count} territory numbers")
        if led_owners and len(sensor_keys) < game_map.size:
            raise bad("led_owners", "LED answers before every sensor was recorded")
        session = cls(game_map, led_count, keys)
        for key in sensor_keys:
            if not session.key_pressed(key).accepted:
                raise bad("sensor_keys", f"key {key} is outside the matrix or recorded twice")
        for owner in led_owners:
            question = session.question()
            if owner == PANEL:
                session.next_pressed()
            elif not (0 <= owner < game_map.size and question and session._led_to(owner, question).accepted):
                raise bad("led_owners", f"territory {owner} does not exist or has more than "
                                        f"{MAX_LEDS_PER_TERRITORY} LEDs")
        return session

    # -- names ----------------------------------------------------------------------------------------------------

    def _name(self, territory: int) -> str:
        return self.game_map.territories[territory].name_en

    def _owner_name(self, owner: int) -> str:
        return "panel" if owner == PANEL else self._name(owner)

    def _panel_role(self, n: int) -> str:
        if n < DICE_LEDS:
            side = "attack" if n < DICE_LEDS // 2 else "defence"
            die, pip = divmod(n % (DICE_LEDS // 2), PIPS_PER_DIE)
            return f"{side} die {die + 1}, pip {pip + 1}"
        return f"ring LED {n - DICE_LEDS + 1}"


def _int_list(value: object) -> TypeGuard[list[int]]:
    return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
