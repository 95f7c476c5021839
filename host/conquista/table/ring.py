"""The status ring: what its LEDs show at time `now`, from the referee's state (pure: time passed in). The mode
(table/modes.py) chooses: the power-off question; a fault of the sensor link (the whole ring blinks); a yes/no
question; the set-up menu; the game. In the game the ring is in the colour of the seat that acts and shows the count
that matters now as lit LEDs (armies left to place, armies to move in, armies to move when fortifying) or lit arcs
(dice chosen, of three); with no count it shows the phase (a bright third). A set of cards ready to trade blinks the
ring's last `TRADE_LEDS` LEDs in the selection colour. A journal fault blinks every other LED over all of it.

With a turn time limit (`turn_time_limit_s`) the game's ring runs down clockwise as the turn's time passes
(`with_time_left`): the LEDs past the time left go dark. Once the tournament clock has run out, the ring's top LED
is amber: steady in the second-to-last round, blinking from the last round on (`with_tournament_signal`).
"""

from __future__ import annotations

from conquista.table.colours import OFF, RGB, SELECT, scale

Ring = tuple[RGB, ...]

PROMPT_YES: RGB = (0, 200, 0)    # a question: the ring half green (ROLL: yes) ...
PROMPT_NO: RGB = (200, 0, 0)     # ... and half red (CANCEL, or for the power-off question any other key: no)
PHASE_DIM = 0.15                 # the phases not being played
COUNT_DIM = 0.08                 # the LEDs (or arcs) of a count that are not lit
TRADE_LEDS = 3                   # a set to trade: the ring's last three LEDs blink the selection colour
CLAIM_LEDS = 2                   # a phone's seat claim: the ring's two bottom LEDs blink the seat's colour
BLINK_PERIOD_S = 1.0             # faults, questions and the trade signal: on for half of it
MAX_DICE = 3


def blink_on(now: float, period: float = BLINK_PERIOD_S) -> bool:
    return (now % period) < period / 2


def arcs(n: int, k: int) -> list[range]:
    """The LED positions of `k` equal arcs of a ring of `n`, clockwise from the top."""
    return [range(i * n // k, (i + 1) * n // k) for i in range(k)]


def arc_ring(n: int, colours: list[RGB]) -> Ring:
    """One arc per colour; the last LED of an arc of two or more stays dark, so the arcs can be counted."""
    ring = [OFF] * n
    for arc, colour in zip(arcs(n, len(colours)), colours, strict=True):
        for i in arc:
            ring[i] = OFF if len(arc) > 1 and i == arc[-1] else colour
    return tuple(ring)


def phase_ring(n: int, colour: RGB, active: int) -> Ring:
    """Three thirds, reinforce / attack / fortify: the current phase bright, the others dim."""
    dim = scale(colour, PHASE_DIM)   # once, not per LED: the ring is painted every frame
    return tuple(colour if (i * 3) // n == active else dim for i in range(n))


def count_ring(n: int, colour: RGB, count: int) -> Ring:
    """`count` LEDs lit clockwise from the top (all of them for `n` or more), the rest dim."""
    dim = scale(colour, COUNT_DIM)
    return tuple(colour if i < count else dim for i in range(n))


def dice_ring(n: int, colour: RGB, chosen: int, allowed: int) -> Ring:
    """Three arcs, one per die: the dice chosen lit, the others that could be chosen dim, the rest dark."""
    dim = scale(colour, COUNT_DIM)
    return arc_ring(n, [colour if d < chosen else dim if d < allowed else OFF for d in range(MAX_DICE)])


def with_trade_signal(ring: Ring, now: float) -> Ring:
    signal = SELECT if blink_on(now) else OFF
    keep = max(len(ring) - TRADE_LEDS, 0)
    return ring[:keep] + tuple(signal for _ in ring[keep:])


def with_claim_signal(ring: Ring, colour: RGB, now: float) -> Ring:
    """A phone asks for a seat: the ring's foot (its `CLAIM_LEDS` bottom LEDs) blinks the seat's colour, while the
    rest goes on showing the game, the menu or the question."""
    n = len(ring)
    foot = {(n // 2 + i - CLAIM_LEDS // 2) % n for i in range(CLAIM_LEDS)} if n else set()
    signal = colour if blink_on(now) else OFF
    return tuple(signal if i in foot else c for i, c in enumerate(ring))


def with_time_left(ring: Ring, fraction: float) -> Ring:
    """A turn clock: the ring runs down clockwise, the LEDs past `fraction` (0..1) of it going dark."""
    lit = round(max(0.0, min(1.0, fraction)) * len(ring))
    return tuple(c if i < lit else OFF for i, c in enumerate(ring))


def question_ring(n: int, now: float, colour: RGB | None = None) -> Ring:
    if not blink_on(now):
        return tuple(OFF for _ in range(n))
    if colour is not None:
        return tuple(colour for _ in range(n))
    return tuple(PROMPT_YES if i < n // 2 else PROMPT_NO for i in range(n))
