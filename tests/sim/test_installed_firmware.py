"""The firmware ships as package data: an installed (non-editable) conquista runs it on the simulated Pico and
deploys it, with no checkout in sight."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FROM_THE_INSTALLED_COPY = """
import sys, time
site = sys.argv[1]
import conquista
from conquista.cli.firmware_cmd import deploy_files
from conquista_sim.pico import SimulatedPico, firmware_dir

assert conquista.__file__.startswith(site), conquista.__file__
assert str(firmware_dir()).startswith(site), firmware_dir()
sources = [str(src) for src in deploy_files().values() if src is not None]
assert sources and all(src.startswith(site) for src in sources), sources
assert {"main.py", "config.json", "cqfw/device.py", "lib/conquista/link/codec.py"} <= set(deploy_files())
with SimulatedPico(debounce_ms=2) as pico:
    assert sys.modules["cqfw.device"].__file__.startswith(site)
    pico.press(5)
    deadline = time.monotonic() + 5
    while not pico.fired and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [(k.key, k.down) for k in pico.fired] == [(5, True)], pico.fired
print("ok")
"""


def test_an_installed_copy_runs_and_deploys_its_own_firmware(tmp_path: Path) -> None:
    wheels, site = tmp_path / "wheels", tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(ROOT)], check=True, capture_output=True)
    wheel = next(wheels.glob("conquista-*.whl"))
    subprocess.run([*pip, "install", "--no-deps", "--target", str(site), str(wheel)], check=True,
                   capture_output=True)
    # -S: no site processing, so the checkout's editable install is not on the path; the dependencies
    # (pyserial, gpiozero) come from this environment's site-packages, after the installed copy.
    env = {k: v for k, v in os.environ.items() if k not in ("CONQUISTA_FIRMWARE_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), sysconfig.get_paths()["purelib"]])
    proc = subprocess.run([sys.executable, "-S", "-c", FROM_THE_INSTALLED_COPY, str(site)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
