"""The text of the systemd unit and the udev rule, built from the install options (pure: no file is touched).

The unit runs `conquista play` at boot as the given user, restarts it when it fails (not when it stops cleanly),
gives it the groups of the Pico's serial port and of the GPIOs, and leaves its output to the journal. The udev rule
gives the Pico a name of its own, `/dev/conquista-pico`, found by MicroPython's USB ids, so the port cannot move to
another device when more USB serial adapters are plugged in.

Boot never waits for the Pico: the unit is only ordered after its device (After=, no Wants=), so with the Pico
unplugged the board starts at once instead of stalling on the device's 90 s job timeout; and the udev rule asks
systemd to start the service when the Pico appears (SYSTEMD_WANTS), so a board that gave up while it was unplugged
comes up as soon as it is plugged in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from conquista.link.ports import PICO_PID, PICO_VID

UNIT_NAME = "conquista.service"
UNIT_DIR = PurePosixPath("etc/systemd/system")
RULE_NAME = "99-conquista-pico.rules"
RULE_DIR = PurePosixPath("etc/udev/rules.d")
PICO_LINK = "conquista-pico"
SERIAL_GROUP = "dialout"     # Debian's group for serial ports; the udev rule gives the Pico's port to it
GPIO_GROUP = "gpio"          # Raspberry Pi OS's group for /dev/gpiochip* (gpiozero through lgpio)


@dataclass(frozen=True)
class ServiceOptions:
    executable: str                  # absolute path of the `conquista` script inside its virtual environment
    user: str
    play_args: tuple[str, ...] = ()  # e.g. ("--board", "/home/pi/my-board.toml")
    groups: tuple[str, ...] = (SERIAL_GROUP,)
    working_directory: str | None = None
    device: str | None = None        # a /dev path to wait for at boot (the Pico's link), if the board has one


def systemd_quote(word: str) -> str:
    """One word of an ExecStart= line: systemd expands % specifiers and $ variables and splits on spaces."""
    escaped = word.replace("%", "%%").replace("$", "$$")
    if escaped and not any(c in escaped for c in " \t\"'\\;"):
        return escaped
    return '"' + escaped.replace("\\", "\\\\").replace('"', '\\"') + '"'


def device_unit_name(path: str) -> str:
    """systemd's name for the device at `path` (what `systemd-escape --path --suffix=device` prints)."""
    parts = [p for p in path.split("/") if p]
    escaped = []
    for part in parts:
        word = "".join(c if c.isalnum() or c in ":_." else "".join(f"\\x{b:02x}" for b in c.encode()) for c in part)
        escaped.append("\\x2e" + word[1:] if word.startswith(".") else word)
    return "-".join(escaped) + ".device"


def exec_line(words: Sequence[str]) -> str:
    return " ".join(systemd_quote(w) for w in words)


def unit_text(options: ServiceOptions) -> str:
    command = exec_line([options.executable, "play", *options.play_args])
    lines = [
        "# Written by `conquista service install`; `conquista service uninstall` removes it.",
        "[Unit]",
        "Description=conquista: the board's referee",
        "After=local-fs.target",
        # Restart=on-failure retries for ever; a board that fails five times in two minutes (a missing profile,
        # an unplugged Pico) stops, and `conquista service status` shows the last lines of its journal.
        "StartLimitIntervalSec=120",
        "StartLimitBurst=5",
    ]
    if options.device:
        # The udev rule tags the Pico for systemd, which makes it a device unit. Ordered after it when both start
        # together, but not wanting it: a Wants= would hold the boot for 90 s when the Pico is unplugged.
        lines.append(f"After={device_unit_name(options.device)}")
    lines += [
        "",
        "[Service]",
        "Type=simple",
        f"User={options.user}",
    ]
    if options.groups:
        lines.append(f"SupplementaryGroups={' '.join(options.groups)}")
    if options.working_directory:
        lines.append(f"WorkingDirectory={systemd_quote(options.working_directory)}")
    lines += [
        f"ExecStart={command}",
        "Restart=on-failure",
        "RestartSec=3",
        "Environment=PYTHONUNBUFFERED=1",
        "StandardOutput=journal",
        "StandardError=journal",
        "SyslogIdentifier=conquista",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ]
    return "\n".join(lines)


def udev_rule_text(group: str = SERIAL_GROUP) -> str:
    return (
        "# Written by `conquista service install`: the Pico running MicroPython, by its USB ids, as /dev/"
        f"{PICO_LINK}; plugging it in starts the board's service if it is not running.\n"
        f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{PICO_VID:04x}", ATTRS{{idProduct}}=="{PICO_PID:04x}", '
        f'SYMLINK+="{PICO_LINK}", GROUP="{group}", MODE="0660", TAG+="systemd", '
        f'ENV{{SYSTEMD_WANTS}}+="{UNIT_NAME}"\n'
    )
