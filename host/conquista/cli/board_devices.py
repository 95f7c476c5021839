"""The real board's devices, checked before a table session shows anything (`play`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquista.hardware.profile import BoardProfile

if TYPE_CHECKING:
    from conquista.app.board import BoardDevices
    from conquista.app.board_loop import BoardInbox


def open_board(profile: BoardProfile, sensors_url: str | None, inbox: BoardInbox) -> BoardDevices:
    """Open every device the profile names, their inputs pushed into the board loop's `inbox`, so that a missing
    Pico, strip or pin is the one line `play` prints, before the web app's QR code and address (which promised a
    board that never came). They stay open for the board: closing gpiozero's buttons stops a hold thread each,
    up to 0.1 s apiece, and opening the Pico's link again repeats its handshake, all before the first frame.
    The buttons and the buzzer open after the first frame (run_board), before the web app: their failure is still
    the one line said, after the menu has shown on the LEDs for a moment."""
    from conquista.app.board import open_devices
    from conquista.devices.clock import MonotonicClock

    return open_devices(profile, MonotonicClock(), sensors_url, push=inbox.put, after_first_frame=True)
