"""Finding and opening the Pico's port: a URL (device path, socket://, loop://) or the USB id of MicroPython."""

from __future__ import annotations

from dataclasses import dataclass

import serial
import serial.tools.list_ports

from conquista.errors import LinkError as LinkError

# MicroPython's USB CDC on the RP2040 and RP2350 (Raspberry Pi's vendor id, MicroPython's product id).
PICO_VID = 0x2E8A
PICO_PID = 0x0005
BAUDRATE = 115200  # ignored by USB CDC, but a USB-serial adapter in between needs one


@dataclass(frozen=True, slots=True)
class PortInfo:
    device: str
    description: str
    serial_number: str | None


def find_picos() -> list[PortInfo]:
    found = []
    for p in serial.tools.list_ports.comports():
        if p.vid == PICO_VID and p.pid == PICO_PID:
            found.append(PortInfo(p.device, p.description or "", p.serial_number))
    return sorted(found, key=lambda p: p.device)


def find_pico_port() -> str:
    """The one Pico plugged in; an error that says what to do when there is none or more than one."""
    picos = find_picos()
    if not picos:
        raise LinkError(
            f"no Raspberry Pi Pico running MicroPython found (USB {PICO_VID:04x}:{PICO_PID:04x}): plug it in, "
            "flash MicroPython and run `conquista firmware deploy`, or name the port (e.g. /dev/ttyACM0)"
        )
    if len(picos) > 1:
        names = ", ".join(p.device for p in picos)
        raise LinkError(f"several Picos found ({names}): name the one wired to the board's sensors")
    return picos[0].device


def open_port(url: str) -> serial.SerialBase:
    """Open a device path or a pyserial URL; a failure names the port."""
    try:
        # timeout only bounds ReaderThread's read for ports without cancel_read (socket://); write_timeout keeps a
        # stuck USB endpoint from blocking the supervisor, which must stay free to notice the silence.
        return serial.serial_for_url(url, baudrate=BAUDRATE, timeout=0.2, write_timeout=0.5)
    except (serial.SerialException, ValueError, OSError) as exc:
        raise LinkError(f"cannot open {url}: {exc}") from exc
