"""Does the Pico's firmware (what it said in HELLO) fit the board profile? One line naming the fix when not.

The firmware's sizes come from its own config.json on the Pico, the profile's from the TOML on the Pi: two files
a builder edits by hand. A matrix of another size scans keys that map to the wrong territories, and an LED count
that differs from strip.length leaves the chain's end dark (or the whole board, with led_count = 0) without any
error. So the host compares them as soon as HELLO arrives and refuses to go on.
"""

from __future__ import annotations

from conquista.hardware.profile import BoardProfile, SensorKind, StripDriver

DEPLOY = "then run `conquista firmware deploy`"


def firmware_mismatch(profile: BoardProfile, rows: int, cols: int, led_count: int | None) -> str | None:
    """What differs between the firmware's HELLO (`led_count` None: a firmware too old to say) and the profile."""
    sensors = profile.sensors
    if sensors.kind is SensorKind.SERIAL and (rows, cols) != (sensors.rows, sensors.cols):
        return (f"the Pico's firmware scans {rows} × {cols} sensors but {profile.source} has sensors.rows × cols "
                f"= {sensors.rows} × {sensors.cols}: make the Pico's config.json match the profile, {DEPLOY}")
    if profile.strip.driver is StripDriver.PICO:
        return led_count_mismatch(profile.strip.length, led_count)
    return None


def led_count_mismatch(length: int, led_count: int | None) -> str | None:
    """The Pico drives the chain: its LED count must be the profile's strip.length."""
    if led_count is None or led_count == length:
        return None
    return (f"the Pico's firmware drives {led_count} LEDs (led_count in its config.json) but the profile has "
            f"strip.length = {length}: set \"led_count\": {length} in firmware/config.json, {DEPLOY}")
