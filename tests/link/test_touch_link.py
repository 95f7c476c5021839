"""The weekend build's sensors end to end: the firmware's MPR121 scanner on fake MPR121s in the simulated Pico,
through the real serial link and the touch profile's [board, electrode] mapping, to a territory's tap."""

from __future__ import annotations

import time

from conquista.devices.events import Edge
from conquista.hardware.profile import SensorPart, load_profile
from conquista.rules.mapdata import load_map
from conquista_sim.linked import LinkedSensors


def test_a_finger_on_a_pad_taps_its_territory_over_the_link() -> None:
    game_map = load_map(None)
    profile = load_profile("classic-42-touch", game_map)
    assert profile.sensors.part is SensorPart.MPR121 and (profile.sensors.rows, profile.sensors.cols) == (4, 12)
    sensors = LinkedSensors(profile, "serial", time.monotonic, lambda fault: None)
    try:
        assert sensors.pico is not None and sensors.pico.bus is not None
        hello = sensors.link.firmware
        assert hello is not None and (hello.rows, hello.cols) == (4, 12)
        for name in ("kamchatka", "argentina"):
            territory = game_map.index(name)
            events = sensors.touch(territory, 0.05)
            assert [(e.territory, e.edge) for e in events] == [(territory, Edge.PRESS), (territory, Edge.RELEASE)]
        board, electrode = divmod(profile.sensors.key_of_territory[game_map.index("argentina")], 12)
        assert (board, electrode) == (1, 0)
    finally:
        sensors.close()
