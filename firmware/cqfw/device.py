"""The firmware proper: scan, debounce, report over the link, obey the host. No hardware is touched here.

Everything arrives through the constructor (pins inside the scanner, a port with write()/readinto(), a clock
with ticks_diff()/ticks_add(), optional LEDs), so the same object runs on the Pico, in the simulated Pico and in
the tests under CPython and MicroPython. Every buffer is made in __init__: step() and everything it calls
allocates nothing, which tests/firmware proves under micropython.heap_lock().

Sequence numbers count KEY events (see hardware/PROTOCOL.md): a KEY frame carries its own number, every other
frame the number of the last KEY sent, so the host spots a lost press or release from any later frame. The last
RING events are kept so a host that missed some gets them again, with their original numbers and timestamps,
before the SNAPSHOT that confirms the state.
"""

from conquista.link import codec
from cqfw import VERSION
from cqfw.compat import TYPE_CHECKING, const
from cqfw.debounce import MS_MIN, Debouncer

if TYPE_CHECKING:
    from cqfw.collaborators import Clock, Leds, Port, Scanner

RING = const(32)  # a power of two: the ring slot of an event is its sequence number & (RING - 1)
HEARTBEAT_MS = const(100)
RX_CHUNK = const(64)


class Firmware:
    def __init__(
        self,
        scanner: "Scanner",
        port: "Port",
        clock: "Clock",
        rows: int,
        cols: int,
        debounce_ms: int = 10,
        period_ms: int = 1,
        leds: "Leds | None" = None,
    ) -> None:
        self.scanner = scanner
        self.port = port
        self.clock = clock
        self.rows = rows
        self.cols = cols
        self.keys = rows * cols
        self.period_ms = period_ms
        self.debounce_ms = debounce_ms
        self.leds = leds
        self.led_count = leds.count if leds is not None else 0
        self.debouncer = Debouncer(self.keys, debounce_ms, period_ms)
        self.raw = bytearray(self.keys)
        self.key_seq = 0
        self.ring_fill = 0
        self.ring_key = bytearray(RING)
        self.ring_ts = bytearray(2 * RING)
        self.rx_errors = 0
        self.stop_requested = False
        self.next_scan = 0
        self.next_heartbeat = 0
        bitmap = (self.keys + 7) // 8
        self.snapshot_len = codec.SNAPSHOT_HEAD + bitmap
        self.raw_frame = bytearray(codec.MAX_RAW)
        self.out_key = bytearray(codec.wire_size(codec.KEY_LEN))
        self.out_heartbeat = bytearray(codec.wire_size(codec.HEARTBEAT_LEN))
        self.out_snapshot = bytearray(codec.wire_size(self.snapshot_len))
        self.out_hello = bytearray(codec.wire_size(codec.HELLO_LEN))
        self.rxbuf = bytearray(RX_CHUNK)
        self.deframer = codec.Deframer()

    # -- lifecycle -----------------------------------------------------------------------------------------
    def start(self, now: int) -> None:
        """Announce ourselves: a host that sees HELLO knows the firmware (re)started and its key numbers reset."""
        self.next_scan = now
        self.next_heartbeat = self.clock.ticks_add(now, HEARTBEAT_MS)
        self.send_hello()
        self.send_snapshot(now)

    def step(self, now: int) -> None:
        """Handle what the host sent, scan if a scan period has passed, and send the heartbeat when due."""
        # Methods are called in place, never bound to a local: on MicroPython `f = obj.method` allocates.
        clock = self.clock
        self.poll_rx(now)
        if clock.ticks_diff(now, self.next_scan) >= 0:
            self.tick(now)
            self.next_scan = clock.ticks_add(self.next_scan, self.period_ms)
            # After a stall (a long LED write, a debugger) scan once and move on rather than catching up in a burst.
            if clock.ticks_diff(now, self.next_scan) > 0:
                self.next_scan = clock.ticks_add(now, self.period_ms)
        if clock.ticks_diff(now, self.next_heartbeat) >= 0:
            self.send_heartbeat(now)

    def tick(self, now: int) -> None:
        self.scanner.scan(self.raw)
        self.debouncer.update(self.raw, self, now)

    # -- events out ----------------------------------------------------------------------------------------
    def key_event(self, key: int, down: int, now: int) -> None:
        seq = (self.key_seq + 1) & 0xFF
        self.key_seq = seq
        slot = seq & (RING - 1)
        self.ring_key[slot] = (key | codec.KEY_DOWN) if down else key
        self.ring_ts[2 * slot] = (now >> 8) & 0xFF
        self.ring_ts[2 * slot + 1] = now & 0xFF
        if self.ring_fill < RING:
            self.ring_fill += 1
        self.send_key(slot, seq)

    def send_key(self, slot: int, seq: int) -> None:
        raw = self.raw_frame
        raw[0] = codec.T_KEY
        raw[1] = seq
        raw[2] = self.ring_key[slot]
        raw[3] = self.ring_ts[2 * slot]
        raw[4] = self.ring_ts[2 * slot + 1]
        codec.finish_frame(raw, codec.KEY_LEN, self.out_key)
        self.port.write(self.out_key)

    def send_heartbeat(self, now: int) -> None:
        raw = self.raw_frame
        raw[0] = codec.T_HEARTBEAT
        raw[1] = self.key_seq
        raw[2] = (now >> 8) & 0xFF
        raw[3] = now & 0xFF
        raw[4] = self.rx_errors
        codec.finish_frame(raw, codec.HEARTBEAT_LEN, self.out_heartbeat)
        self.port.write(self.out_heartbeat)
        self.next_heartbeat = self.clock.ticks_add(now, HEARTBEAT_MS)

    def send_snapshot(self, now: int) -> None:
        raw = self.raw_frame
        raw[0] = codec.T_SNAPSHOT
        raw[1] = self.key_seq
        raw[2] = (now >> 8) & 0xFF
        raw[3] = now & 0xFF
        raw[4] = self.keys
        state = self.debouncer.state
        i = 0
        end = self.snapshot_len - codec.SNAPSHOT_HEAD
        while i < end:
            raw[5 + i] = 0
            i += 1
        for k in range(self.keys):
            if state[k]:
                raw[5 + (k >> 3)] |= 1 << (k & 7)
        codec.finish_frame(raw, self.snapshot_len, self.out_snapshot)
        self.port.write(self.out_snapshot)

    def send_hello(self) -> None:
        raw = self.raw_frame
        raw[0] = codec.T_HELLO
        raw[1] = self.key_seq
        raw[2] = codec.PROTOCOL_VERSION
        raw[3] = VERSION[0]
        raw[4] = VERSION[1]
        raw[5] = VERSION[2]
        raw[6] = self.rows
        raw[7] = self.cols
        raw[8] = self.debounce_ms
        raw[9] = self.period_ms
        # The LEDs this firmware drives: the host refuses a profile whose strip.length differs (a dark board
        # with no error otherwise).
        count = self.led_count
        raw[10] = (count >> 8) & 0xFF
        raw[11] = count & 0xFF
        codec.finish_frame(raw, codec.HELLO_LEN, self.out_hello)
        self.port.write(self.out_hello)

    # -- commands in ---------------------------------------------------------------------------------------
    def poll_rx(self, now: int) -> None:
        n = self.port.readinto(self.rxbuf)
        deframer = self.deframer
        i = 0
        while i < n:
            r = deframer.feed(self.rxbuf[i])
            i += 1
            if r > 0:
                self.handle(r, now)
            elif r < 0:
                self.rx_errors = (self.rx_errors + 1) & 0xFF

    def handle(self, n: int, now: int) -> None:
        frame = self.deframer.frame
        ftype = frame[0]
        plen = n - 2
        if ftype == codec.T_RESYNC and plen == codec.RESYNC_LEN:
            if frame[3] & codec.RESYNC_HAVE_SEQ:
                self.replay_after(frame[2])
            self.send_snapshot(now)
        elif ftype == codec.T_PING:
            self.send_heartbeat(now)
        elif ftype == codec.T_HELLO_REQUEST:
            self.send_hello()
            self.send_snapshot(now)
        elif ftype == codec.T_CONFIG and plen == codec.CONFIG_LEN and frame[2] >= MS_MIN:
            # A debounce of 0 is outside the protocol's 1..255: it falls through to rx_errors and is not
            # acknowledged, so the host sees its CONFIG refused rather than a board reporting every bounce.
            self.debounce_ms = frame[2]
            self.debouncer.configure(frame[2], self.period_ms)
            # HELLO carries the debounce in force: it is the host's acknowledgement.
            self.send_hello()
        elif ftype == codec.T_LED and plen >= codec.LED_HEAD + 3 and self.leds is not None:
            start = (frame[2] << 8) | frame[3]
            self.leds.load(start, frame, 4, (plen - codec.LED_HEAD) // 3)
        elif ftype == codec.T_LED_SHOW and self.leds is not None:
            self.leds.show()
        elif ftype == codec.T_STOP and plen == 4 and frame[2] == 0x52 and frame[5] == 0x4C:
            # "R..L" of STOP_MAGIC: the CRC already vouches for the frame, the magic and length keep a frame of
            # some future type from stopping the scan by accident.
            self.stop_requested = True
        else:
            self.rx_errors = (self.rx_errors + 1) & 0xFF

    def replay_after(self, last: int) -> None:
        """Send again the KEY events numbered after `last`, if they are all still in the ring."""
        missing = (self.key_seq - last) & 0xFF
        if missing == 0 or missing > self.ring_fill:
            # Too old to replay: the SNAPSHOT that follows still gives the host the right state.
            return
        seq = last
        for _ in range(missing):
            seq = (seq + 1) & 0xFF
            self.send_key(seq & (RING - 1), seq)
