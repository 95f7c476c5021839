"""The real board's devices, checked before a table session shows anything (`play`)."""

from __future__ import annotations

from conquista.hardware.profile import BoardProfile


def check_devices(profile: BoardProfile, sensors_url: str | None) -> None:
    """Open every device the profile names and close it again, so that a missing Pico, strip or pin is the one
    line `play` prints, before the web app's QR code and address (which promised a board that never came)."""
    from conquista.app.board import open_devices
    from conquista.devices.clock import MonotonicClock

    open_devices(profile, MonotonicClock(), sensors_url).close()
