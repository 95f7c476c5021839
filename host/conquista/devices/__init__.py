"""The board's devices: interfaces the referee uses, typed events, and the real adapters.

Hardware libraries (gpiozero, rpi_ws281x) are imported by the adapters when a device is opened, so importing
this package works on any computer. Fakes for tests and the simulator live in `conquista_sim.devices`.
"""

from conquista.devices.errors import DeviceError
from conquista.devices.events import (
    ButtonEvent,
    Edge,
    EncoderEvent,
    MatrixKeyEvent,
    PanelButton,
    PanelEvent,
    SensorEvent,
)
from conquista.devices.interfaces import ButtonPanel, Buzzer, Clock, KeySource, LedLink, LedStrip, SensorSource

__all__ = [
    "ButtonEvent",
    "ButtonPanel",
    "Buzzer",
    "Clock",
    "DeviceError",
    "Edge",
    "EncoderEvent",
    "KeySource",
    "LedLink",
    "LedStrip",
    "MatrixKeyEvent",
    "PanelButton",
    "PanelEvent",
    "SensorEvent",
    "SensorSource",
]
