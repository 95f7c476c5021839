"""`conquista firmware deploy [--port PORT]`: copy the firmware to a Pico running MicroPython, with mpremote.

The layout on the Pico: main.py and config.json at the root, the firmware package in /cqfw, and the shared
codec at /lib/conquista/link/codec.py with empty package files, so the firmware imports it by the same name
as the host does. A Pico already running the firmware is first asked (T_STOP) to reboot into a maintenance
REPL: its scan loop ignores Ctrl-C (the link is binary) and its watchdog cannot be stopped.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import serial

from conquista.errors import DeployError
from conquista.link import messages
from conquista.link.ports import PICO_PID, PICO_VID, find_pico_port, find_picos
from conquista_sim.pico import firmware_dir


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("firmware", help="manage the Pico firmware")
    sub = p.add_subparsers(dest="firmware_command", metavar="ACTION", required=True)
    d = sub.add_parser("deploy", help="copy the firmware to the Pico with mpremote")
    d.add_argument("--port", help="the Pico's serial port (default: found by its USB id)")
    d.add_argument("--dry-run", action="store_true", help="list the files and the mpremote command, copy nothing")
    d.set_defaults(handler=run)


def deploy_files() -> dict[str, Path | None]:
    """Destination on the Pico -> source file (None: an empty file)."""
    fw = firmware_dir()
    codec = Path(__file__).resolve().parents[1] / "link" / "codec.py"
    files: dict[str, Path | None] = {"main.py": fw / "main.py", "config.json": fw / "config.json"}
    for src in sorted((fw / "cqfw").glob("*.py")):
        files[f"cqfw/{src.name}"] = src
    files["lib/conquista/__init__.py"] = None
    files["lib/conquista/link/__init__.py"] = None
    files["lib/conquista/link/codec.py"] = codec
    return files


def stage(files: dict[str, Path | None], root: Path) -> None:
    for dest, src in files.items():
        target = root / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        if src is None:
            target.write_text("")
        else:
            shutil.copyfile(src, target)


def mpremote_command(port: str, root: Path) -> list[str]:
    tops = sorted({dest.split("/")[0] for dest in deploy_files()})
    return [sys.executable, "-m", "mpremote", "connect", port, "fs", "cp", "-r",
            *[str(root / t) for t in tops], ":", "+", "reset"]  # fmt: skip


def ask_firmware_to_stop(port: str) -> bool:
    """Send T_STOP if our firmware is running there; True if it was sent (the Pico then reboots)."""
    try:
        with serial.serial_for_url(port, baudrate=115200, timeout=0.5, write_timeout=1) as ser:
            ser.write(messages.stop_request(1))
            ser.flush()
    except (serial.SerialException, OSError):
        return False
    return True


def _find_port() -> str:
    """The Pico to deploy to. With none found, the link's own advice ("run `conquista firmware deploy`") would send
    the user back here: what this command needs is MicroPython on a plugged-in Pico."""
    if not find_picos():
        raise DeployError(f"no Pico running MicroPython found (USB {PICO_VID:04x}:{PICO_PID:04x}): plug it in; a new "
                          "Pico needs MicroPython first (hold BOOTSEL while plugging it in and copy the MicroPython "
                          ".uf2 onto the RPI-RP2 drive, docs/building.md), or give --port /dev/ttyACM0")
    return find_pico_port()


def mpremote_installed() -> bool:
    """Whether `python -m mpremote` can run here (it comes with conquista[pi] and [dev])."""
    import importlib.util

    try:
        return importlib.util.find_spec("mpremote") is not None
    except (ImportError, ValueError):   # a broken or blocked install: as good as none
        return False


def run(args: argparse.Namespace) -> int:
    files = deploy_files()
    if not args.dry_run and not mpremote_installed():
        # Else mpremote's own "No module named mpremote", then a question about MicroPython that is beside the point.
        raise DeployError("mpremote, which copies the firmware, is not installed: run `pip install 'conquista[pi]'`")
    port = args.port or ("PORT" if args.dry_run else _find_port())
    if not args.dry_run and "://" not in port and not Path(port).exists():
        # Caught here: mpremote would print its own line before ours, two lines for one mistake.
        raise DeployError(f"--port {port}: no such serial port; plug the Pico in, or leave out --port to find it "
                          "by its USB id")
    with tempfile.TemporaryDirectory(prefix="conquista-fw-") as tmp:
        root = Path(tmp)
        stage(files, root)
        command = mpremote_command(port, root)
        if args.dry_run:
            for dest, src in files.items():
                print(f":{dest}  <-  {src if src is not None else '(empty)'}")
            print(" ".join(command))
            return 0
        if ask_firmware_to_stop(port):
            # The firmware reboots into its maintenance REPL; USB re-enumerates meanwhile.
            time.sleep(2.5)
        try:
            proc = subprocess.run(command, check=False)
        except FileNotFoundError as exc:
            raise DeployError(f"cannot run mpremote: {exc}; install it with pip install mpremote") from exc
        if proc.returncode != 0:
            raise DeployError(
                f"mpremote could not copy the firmware to {port} (exit {proc.returncode}): is MicroPython flashed "
                "on the Pico, and is no other program (conquista, a serial monitor) holding the port?"
            )
    print(f"firmware deployed to {port}; the Pico restarted into it")
    return 0
