"""LED frame speed against issue 4's target: a 150-LED frame built in ≤ 0.2 ms.

One frame is the referee's whole per-frame LED work on the reference profile: every territory painted in a
colour, the dice panel and the status ring painted, then brightness and the current limit, then the conversion to
rpi-ws281x's packed colours. Two palettes are timed: the players' colours (within the supply budget, so the
limiter only measures) and white everywhere (over budget, so the limiter also scales); the slower one counts.
Each figure is the median over batches of frames; the slowest batch is printed too, for information.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Sequence

from conquista.devices.current_limit import OutputStage, PowerBudget
from conquista.devices.frames import RGB, DiceSide, LedLayout, to_packed_colors
from conquista.hardware.profile import load_profile

TARGET_S = 0.0002
BATCH = 200
BATCHES = 25

PLAYERS: list[RGB] = [(230, 30, 30), (30, 60, 230), (240, 210, 20), (30, 200, 60), (160, 40, 200), (90, 90, 90)]
WHITE: list[RGB] = [(255, 255, 255)]


def main() -> int:
    profile = load_profile()
    layout = LedLayout(profile)
    stage = OutputStage.from_strip(profile.strip)
    unlimited = OutputStage(profile.strip.length, profile.strip.brightness, PowerBudget(float("inf"), 1.0, 0.0))
    territories = range(len(profile.territory_leds))

    def paint(turn: int, colours: Sequence[RGB]) -> bytearray:
        frame = layout.blank()
        for t in territories:
            layout.paint_territory(frame, t, colours[(t + turn) % len(colours)])
        for die in range(3):
            layout.paint_die(frame, DiceSide.ATTACK, die, (turn + die) % 6 + 1, colours[0])
            layout.paint_die(frame, DiceSide.DEFENCE, die, (turn + 2 * die) % 6 + 1, colours[-1])
        for position in range(layout.ring_length):
            layout.paint_ring(frame, position, colours[turn % len(colours)])
        return frame

    worst = 0.0
    for name, colours, scaled in (("players' colours", PLAYERS, False), ("all white", WHITE, True)):
        sample = paint(0, colours)
        # The case must do the work its name says: scaling (or not) by the current limit.
        assert (stage.prepare(sample) != unlimited.prepare(sample)) is scaled, name
        per_frame = []
        for batch in range(BATCHES):
            started = time.perf_counter()
            for turn in range(BATCH):
                to_packed_colors(stage.prepare(paint(batch + turn, colours)))
            per_frame.append((time.perf_counter() - started) / BATCH)
        median = statistics.median(per_frame)
        worst = max(worst, median)
        print(f"150-LED frame, {name} (paint 42 territories + dice + ring, brightness, current limit, packed "
              f"colours): median {median * 1e3:.3f} ms, slowest batch {max(per_frame) * 1e3:.3f} ms")
    ok = worst <= TARGET_S
    print(f"150-LED frame: {worst * 1e3:.3f} ms (target ≤ {TARGET_S * 1e3:.1f} ms) {'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
