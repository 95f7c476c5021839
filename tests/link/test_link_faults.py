"""End to end through a damaging link: the simulated Pico (the real firmware modules), a proxy that drops,
corrupts and duplicates 5% of the bytes both ways and cuts the link for 2 s, and the host's SerialSensorSource.

Checked against the firmware's own record of what it sent (SimulatedPico.fired): no key event is accepted that
the firmware did not send, none twice, none lost (taps during the cut come back as replays), the key state ends
equal, the silence is noticed within 1 s and the host is back in step within 200 ms of the link's return,
all measured on the host's own clock (time.monotonic, shared by the proxy and the link in this process).
"""

from __future__ import annotations

import time

from faulty_proxy import FaultyProxy

from conquista.link.session import Health, HealthEvent, KeyEvent, KeyOrigin
from conquista.link.source import SerialSensorSource
from conquista_sim.pico import SimulatedPico


def tap(pico: SimulatedPico, key: int, hold: float = 0.04, gap: float = 0.04) -> None:
    pico.press(key)
    time.sleep(hold)
    pico.release(key)
    time.sleep(gap)


def test_link_survives_noise_and_a_two_second_cut() -> None:
    late = run_noisy_cut_scenario()
    if late > RESYNC_DEADLINE_S:
        # The deadline is wall-clock time on a shared machine: one scheduler stall may be retried once, a second
        # late resync fails the test.
        late = run_noisy_cut_scenario()
    assert late <= RESYNC_DEADLINE_S, f"resynchronised {late:.3f} s after the link returned (twice)"


RESYNC_DEADLINE_S = 0.2


def run_noisy_cut_scenario() -> float:
    """Every correctness check of the scenario; returns how long after the link's return the host was in step."""
    pico = SimulatedPico(debounce_ms=5).start()
    proxy = FaultyProxy(pico.address, rate=0.05, seed=5).start()
    sensors = SerialSensorSource(proxy.url, silence_timeout=0.5)
    try:
        sensors.start(wait_ready=5.0)
        # Before the cut: taps under noise, and key 3 held down across the cut (released during it).
        for i in range(8):
            tap(pico, 10 + i)
        pico.press(3)
        time.sleep(0.1)

        cut_start = time.monotonic()
        restored_at = proxy.cut(2.0)
        time.sleep(0.3)
        pico.release(3)  # a release the host cannot see now: must not leave key 3 down
        for key in (20, 21, 22):
            tap(pico, key)
        pico.press(4)  # pressed during the cut and still held when the link returns
        while time.monotonic() < restored_at:
            time.sleep(0.01)

        # After the link is back: more taps under noise.
        for i in range(8):
            tap(pico, 30 + i)
        pico.release(4)
        time.sleep(0.6)

        events = sensors.drain()
        fired = list(pico.fired)
        firmware_state = {k for k in range(pico.keys) if pico.firmware.debouncer.state[k]}
        host_state = set(sensors.pressed)
        counters = sensors.counters()
    finally:
        sensors.close()
        proxy.stop()
        pico.stop()

    assert proxy.damaged >= 20, f"the proxy must actually have damaged the stream ({proxy.damaged} bytes)"
    assert counters.crc_errors + counters.malformed > 0
    keys = [e for e in events if isinstance(e, KeyEvent)]
    health = [e for e in events if isinstance(e, HealthEvent)]

    # No wrong key event: every event accepted from a KEY frame is one the firmware sent, and only once.
    truth = {(f.seq, f.key, f.down, f.ms16) for f in fired}
    accepted = [(e.seq, e.key, e.pressed, (e.fw_ms or 0) & 0xFFFF) for e in keys if e.origin is not KeyOrigin.SNAPSHOT]
    assert accepted, "no key event came through"
    assert set(accepted) <= truth
    assert len(accepted) == len(set(accepted))

    # No press lost: every press the firmware reported, during the cut or after it, reached the host from
    # its KEY frame (live or replayed), not merely as a state correction.
    delivered = {(seq, key) for seq, key, down, _ in accepted if down}
    pressed_after_cut_start = [(f.seq, f.key) for f in fired if f.down and f.host_time >= cut_start]
    assert len(pressed_after_cut_start) >= 11
    assert set(pressed_after_cut_start) <= delivered
    assert any(e.origin is KeyOrigin.REPLAY for e in keys), "taps during the cut must come back as replays"

    # The state ends equal: key 3's release during the cut was not lost.
    assert host_state == firmware_state == set()

    # The silence was noticed within 1 s of the cut, and the host was in step within 200 ms of the return.
    faults = [e for e in health if e.health is not Health.OK and cut_start <= e.host_time < restored_at]
    assert faults, "the cut was never noticed"
    assert faults[0].host_time - cut_start <= 1.0
    back = [e for e in health if e.health is Health.OK and e.host_time >= restored_at]
    assert back, "the host never resynchronised"
    assert counters.silences >= 1 and counters.reconnects >= 1 and counters.resyncs >= 2
    return back[0].host_time - restored_at
