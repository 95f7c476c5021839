"""A simulated board wired in a shuffled order, and a builder's hands that answer the calibration on it.

`shuffled_profile(seed)` is the truth the calibration must find: every territory's sensor on a random matrix
cell, its LEDs at random places along the chain. The dice panel and ring keep their chain order (the calibration
takes them in order by design) but sit at random places between territory LEDs. `AutoBuilder` does what a person
does: it reads which LED is lit from the strip and taps the territory that, in the hidden wiring, sits under it.
"""

from __future__ import annotations

import random
from typing import Any

from conquista.boardtools.calibration import Asked, Question
from conquista.devices.events import PanelButton
from conquista.hardware.profile import (
    DICE_PER_SIDE,
    PIPS_PER_DIE,
    BoardProfile,
    parse_profile,
    read_profile_data,
)
from conquista.rules.mapdata import GameMap
from conquista_sim.devices import FakeBoard


def shuffled_profile(seed: int, game_map: GameMap, base: str | None = None) -> tuple[BoardProfile, dict[str, Any]]:
    """The hidden wiring (validated) and its raw data, from the base profile's settings and counts."""
    data, _ = read_profile_data(base)
    profile = parse_profile(data, "<base>", game_map)
    rng = random.Random(seed)
    panel_count = len(profile.ring) + sum(len(d) for d in (*profile.dice_attack, *profile.dice_defence))
    positions = list(range(profile.strip.length))
    rng.shuffle(positions)
    panel = sorted(positions[:panel_count])
    spare = positions[panel_count:]
    cells = list(range(profile.sensors.rows * profile.sensors.cols))
    rng.shuffle(cells)
    territories = {}
    cols = profile.sensors.cols
    for index, territory in enumerate(game_map.territories):
        count = len(profile.territory_leds[index])
        leds, spare = sorted(spare[:count]), spare[count:]
        territories[territory.id] = {"leds": leds, "cell": list(divmod(cells[index], cols))}
    dice_leds = 2 * DICE_PER_SIDE * PIPS_PER_DIE
    pips = [panel[i:i + PIPS_PER_DIE] for i in range(0, dice_leds, PIPS_PER_DIE)]
    shuffled = {**data, "territories": territories,
                "dice": {"attack": pips[:DICE_PER_SIDE], "defence": pips[DICE_PER_SIDE:]},
                "ring": {"leds": panel[dice_leds:]}}
    return parse_profile(shuffled, f"<shuffled wiring {seed}>", game_map), shuffled


class AutoBuilder:
    """The builder's hands on a simulated board wired as `board.profile`."""

    def __init__(self, board: FakeBoard) -> None:
        self.board = board
        self._owner = {led: t for t, leds in enumerate(board.profile.territory_leds) for led in leds}
        self.actions = 0

    def answer(self, question: Question) -> None:
        if question.kind is Asked.SENSOR:
            self._tap(question.index)
            return
        lit = self._lit_led()
        owner = self._owner.get(lit)
        if owner is None:
            self.board.press(PanelButton.NEXT)
            self.board.release(PanelButton.NEXT)
            self.actions += 1
        else:
            self._tap(owner)

    def _tap(self, territory: int) -> None:
        self.board.press_territory(territory)
        self.board.release_territory(territory)
        self.actions += 1

    def _lit_led(self) -> int:
        frame = self.board.strip.last_requested
        lit = [i for i in range(self.board.strip.length) if frame is not None and any(frame[3 * i:3 * i + 3])]
        if len(lit) != 1:
            raise RuntimeError(f"the calibration should light exactly one LED, it lights {lit}")
        return lit[0]


class CheckBuilder:
    """The builder's hands during `conquista board check`: every territory tapped once, a short pause between
    taps, every button pressed, the encoder turned both ways."""

    def __init__(self, board: FakeBoard, skip: frozenset[int] = frozenset()) -> None:
        self.board = board
        self.skip = skip          # territories whose sensor the simulated board pretends is dead

    def run(self) -> None:
        board = self.board
        for territory in range(board.profile.game_map.size):
            if territory not in self.skip:
                board.press_territory(territory)
                board.clock.advance(0.1)
                board.release_territory(territory)
                board.clock.advance(0.3)
        for button in PanelButton:
            board.press(button)
            board.release(button)
        board.turn(1)
        board.turn(-1)
