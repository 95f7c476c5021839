"""Per-key integrating debounce.

Each key has a counter that moves one step toward the raw reading every scan and the debounced state flips
only when the counter reaches an end. A chattering contact therefore needs `limit` more closed than open scans
to register, and one stray reading never does: unlike a "stable for N ms" timer, this tolerates bounce that
never settles for a full window, which worn tactile switches do.
"""

from cqfw.compat import TYPE_CHECKING, const

if TYPE_CHECKING:
    from cqfw.collaborators import KeySink

_MAX_LIMIT = const(255)
# hardware/PROTOCOL.md: CONFIG and HELLO carry the debounce and the scan period in one byte, and a debounce of 0
# would report every bounce, so both are 1..255 ms wherever they come from (config.json, CONFIG, the constructor).
MS_MIN = const(1)
MS_MAX = const(255)


def check_ms(name: str, value: object) -> int:
    """`value` if it is a whole number of ms in 1..255; otherwise a ValueError naming `name` and the range."""
    if type(value) is not int or not MS_MIN <= value <= MS_MAX:
        raise ValueError(name + " must be a whole number of ms in 1..255, not " + repr(value))
    return value


class Debouncer:
    def __init__(self, keys: int, debounce_ms: int, period_ms: int) -> None:
        self.keys = keys
        self.counts = bytearray(keys)
        self.state = bytearray(keys)
        self.limit = 1
        self.configure(debounce_ms, period_ms)

    def configure(self, debounce_ms: int, period_ms: int) -> None:
        check_ms("debounce_ms", debounce_ms)
        check_ms("scan_period_ms", period_ms)
        # Round up: a debounce shorter than asked lets through bounce the builder meant to filter.
        limit = (debounce_ms + period_ms - 1) // period_ms
        if limit < 1:
            limit = 1
        if limit > _MAX_LIMIT:
            limit = _MAX_LIMIT
        self.limit = limit
        counts = self.counts
        state = self.state
        # Keep each key's debounced state: the counter restarts at the end matching it.
        for k in range(self.keys):
            counts[k] = limit if state[k] else 0

    def update(self, raw: bytearray, sink: "KeySink", now: int) -> None:
        """Fold one scan (raw[k] = 1 when closed) in; report each debounced change as sink.key_event(k, down, now)."""
        counts = self.counts
        state = self.state
        limit = self.limit
        for k in range(self.keys):
            c = counts[k]
            if raw[k]:
                if c < limit:
                    c += 1
                    counts[k] = c
                    if c == limit and not state[k]:
                        state[k] = 1
                        sink.key_event(k, 1, now)
            elif c > 0:
                c -= 1
                counts[k] = c
                if c == 0 and state[k]:
                    state[k] = 0
                    sink.key_event(k, 0, now)
