"""The host's protocol rules, stepped by hand: no port, no thread, time passed in."""

from __future__ import annotations

from conquista.link import codec
from conquista.link.frames import StreamDecoder
from conquista.link.session import Health, HealthEvent, KeyEvent, KeyOrigin, LinkSession


def hello(seq: int = 0) -> bytes:
    return codec.encode_frame(codec.T_HELLO, seq, bytes([1, 0, 1, 0, 6, 7, 10, 1]))


def key(seq: int, k: int, down: bool, ms: int = 1000) -> bytes:
    return codec.encode_frame(codec.T_KEY, seq, bytes([k | (0x80 if down else 0), ms >> 8, ms & 0xFF]))


def snapshot(seq: int, down: set[int], keys: int = 42) -> bytes:
    bitmap = bytearray((keys + 7) // 8)
    for k in down:
        bitmap[k >> 3] |= 1 << (k & 7)
    return codec.encode_frame(codec.T_SNAPSHOT, seq, bytes([0, 0, keys]) + bytes(bitmap))


def heartbeat(seq: int) -> bytes:
    return codec.encode_frame(codec.T_HEARTBEAT, seq, bytes([0, 0, 0]))


def sent_types(out: list[bytes]) -> list[tuple[int, bytes]]:
    frames = StreamDecoder().feed(b"".join(out))
    return [(f.type, f.payload) for f in frames]


def synced_session() -> LinkSession:
    s = LinkSession("test")
    assert sent_types(s.connected(0.0)) == [(codec.T_HELLO_REQUEST, b"")] * 2
    s.receive(hello() + snapshot(0, set()), 0.01)
    assert s.health is Health.OK
    s.take_events()
    return s


def keys_of(s: LinkSession) -> list[tuple[int, bool, KeyOrigin]]:
    return [(e.key, e.pressed, e.origin) for e in s.take_events() if isinstance(e, KeyEvent)]


def test_in_order_keys_are_live_events() -> None:
    s = synced_session()
    s.receive(key(1, 5, True) + key(2, 5, False), 0.1)
    assert keys_of(s) == [(5, True, KeyOrigin.LIVE), (5, False, KeyOrigin.LIVE)]
    assert s.pressed == frozenset()


def test_bad_crc_is_dropped_and_counted() -> None:
    s = synced_session()
    bad = bytearray(key(1, 5, True))
    bad[2] ^= 0x04
    s.receive(bytes(bad), 0.1)
    assert keys_of(s) == []
    assert s.counters().crc_errors + s.counters().malformed == 1


def test_a_key_outside_the_matrix_is_rejected_even_with_a_good_crc() -> None:
    s = synced_session()
    s.receive(key(1, 42, True), 0.1)
    assert keys_of(s) == [] and s.counters().rejected == 1


def test_a_gap_asks_for_a_replay_and_the_replay_fills_it() -> None:
    s = synced_session()
    s.receive(key(1, 5, True), 0.1)
    out = s.receive(key(3, 6, True), 0.2)  # number 2 (the release of 5) was lost
    assert sent_types(out)[0] == (codec.T_RESYNC, bytes([1, codec.RESYNC_HAVE_SEQ]))
    assert s.health is Health.OK or s.health is Health.SYNCING
    s.receive(key(2, 5, False) + key(3, 6, True) + snapshot(3, {6}), 0.21)
    events = keys_of(s)
    assert events[0] == (5, True, KeyOrigin.LIVE)
    assert (5, False, KeyOrigin.REPLAY) in events and (6, True, KeyOrigin.REPLAY) in events
    assert s.pressed == frozenset({6}) and s.synced


def test_a_lost_release_never_leaves_a_key_down() -> None:
    s = synced_session()
    s.receive(key(1, 5, True), 0.1)
    assert keys_of(s) == [(5, True, KeyOrigin.LIVE)]
    # The release (2) is lost and the firmware can no longer replay it: the SNAPSHOT corrects the state.
    s.receive(heartbeat(2), 0.2)
    for attempt in range(s.max_replay_attempts + 1):
        s.receive(snapshot(2, set()), 0.3 + attempt * 0.01)
    assert keys_of(s) == [(5, False, KeyOrigin.SNAPSHOT)]
    assert s.pressed == frozenset() and s.synced


def test_a_heartbeat_with_a_newer_number_reveals_a_lost_last_event() -> None:
    s = synced_session()
    out = s.receive(heartbeat(1), 0.1)
    assert sent_types(out)[0][0] == codec.T_RESYNC
    assert s.counters().gaps == 1


def test_duplicates_are_ignored() -> None:
    s = synced_session()
    s.receive(key(1, 5, True) + key(1, 5, True), 0.1)
    assert keys_of(s) == [(5, True, KeyOrigin.LIVE)]
    assert s.counters().duplicates == 1


def test_silence_is_a_fault_within_a_second_and_patience_grows() -> None:
    s = synced_session()
    t = 0.01
    while not s.needs_reopen:
        t += 0.01
        s.poll(t)
    assert t <= 1.0
    assert s.health is Health.FAULT
    assert any(isinstance(e, HealthEvent) and e.health is Health.FAULT for e in s.take_events())
    s.connected(t)
    t0 = t
    while not s.needs_reopen:
        t += 0.01
        s.poll(t)
    assert t - t0 > 0.9  # the second silent reopen waits twice as long
    assert s.counters().silences == 2 and s.counters().reconnects == 1


def test_while_silent_the_host_keeps_asking_so_a_returning_link_is_caught_at_once() -> None:
    s = synced_session()
    s.poll(0.6)
    s.connected(0.6)
    requests = sum(len(s.poll(0.6 + i * 0.01)) for i in range(1, 30))
    assert requests >= 10


def test_a_firmware_restart_is_counted_and_its_snapshot_applied() -> None:
    s = synced_session()
    s.receive(key(1, 5, True) + key(2, 9, True), 0.1)
    s.take_events()
    s.receive(hello(0) + snapshot(0, {9}), 0.2)
    assert s.counters().firmware_restarts == 1
    assert keys_of(s) == [(5, False, KeyOrigin.SNAPSHOT)]
    assert s.pressed == frozenset({9})


def test_firmware_time_is_unwrapped() -> None:
    s = synced_session()
    s.receive(key(1, 5, True, ms=65500), 0.1)
    s.receive(heartbeat(1) + key(2, 5, False, ms=30), 0.2)
    fw = [e.fw_ms for e in s.take_events() if isinstance(e, KeyEvent)]
    assert fw[1] is not None and fw[0] is not None and fw[1] - fw[0] == 66
