"""The rpi-ws281x strip against a fake rpi_ws281x module that behaves like the real one where it matters."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conquista.devices.current_limit import OutputStage
from conquista.devices.errors import DeviceError
from conquista.devices.frames import LedLayout, to_packed_colors
from conquista.devices.ws281x import Ws281xStrip
from conquista.hardware.profile import BoardProfile, StripDriver

FAKES = Path(__file__).resolve().parent / "fakes"


@pytest.fixture
def fake_ws281x(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("rpi_ws281x", FAKES / "rpi_ws281x.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.init_error = None
    monkeypatch.setitem(sys.modules, "rpi_ws281x", module)
    return module


def test_strip_is_opened_with_the_profile_settings(fake_ws281x: ModuleType, profile: BoardProfile) -> None:
    strip = Ws281xStrip(profile.strip)
    (pixel_strip,) = fake_ws281x.instances
    # num, pin, freq, dma, invert, brightness (full: dimming is done in software), channel, colour order
    assert pixel_strip.args == (150, 18, 800_000, 10, False, 255, 0, fake_ws281x.WS2811_STRIP_GRB)
    assert strip.length == 150
    strip.close()


def test_frames_reach_the_leds_dimmed_and_limited(fake_ws281x: ModuleType, profile: BoardProfile) -> None:
    strip = Ws281xStrip(profile.strip)
    white = bytes([255]) * 450
    strip.show(white)
    (pixel_strip,) = fake_ws281x.instances
    stage = OutputStage.from_strip(profile.strip)
    emitted = stage.prepare(white)
    assert pixel_strip.shown[-1] == to_packed_colors(emitted)
    assert stage.budget.current_ma(emitted) <= profile.strip.supply_ma
    assert emitted != white


def test_only_changed_leds_are_sent_again(fake_ws281x: ModuleType, profile: BoardProfile) -> None:
    strip = Ws281xStrip(profile.strip)
    layout = LedLayout(profile)
    frame = layout.blank()
    layout.paint_territory(frame, profile.game_map.index("alaska"), (200, 0, 0))
    strip.show(frame)
    (pixel_strip,) = fake_ws281x.instances
    first = pixel_strip.set_calls
    layout.paint_territory(frame, profile.game_map.index("peru"), (0, 200, 0))
    strip.show(frame)
    assert pixel_strip.set_calls - first == len(profile.territory_leds[profile.game_map.index("peru")])
    assert len(pixel_strip.shown) == 2


def test_close_turns_the_leds_off(fake_ws281x: ModuleType, profile: BoardProfile) -> None:
    strip = Ws281xStrip(profile.strip)
    strip.show(bytes([10]) * 450)
    strip.close()
    (pixel_strip,) = fake_ws281x.instances
    assert pixel_strip.shown[-1] == [0] * 150
    strip.close()  # twice is harmless


def test_library_not_installed(monkeypatch: pytest.MonkeyPatch, profile: BoardProfile) -> None:
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)  # makes `import rpi_ws281x` raise ImportError
    with pytest.raises(DeviceError) as info:
        Ws281xStrip(profile.strip)
    message = str(info.value)
    assert "rpi_ws281x library is not installed" in message
    assert "pip install 'conquista[pi]'" in message
    assert "\n" not in message


def test_init_failure_is_one_line_and_leaves_nothing_to_crash(fake_ws281x: ModuleType,
                                                               profile: BoardProfile) -> None:
    fake_ws281x.init_error = "-3 (Hardware revision is not supported)"
    with pytest.raises(DeviceError) as info:
        Ws281xStrip(profile.strip)
    message = str(info.value)
    assert message.startswith("LED strip on GPIO18: rpi-ws281x could not start (ws2811_init failed with code -3")
    assert "Raspberry Pi 1-4" in message and 'strip.driver = "pico"' in message
    assert "\n" not in message
    # Neutralised: the cleanup that would call ws2811_fini at exit is now a no-op.
    (pixel_strip,) = fake_ws281x.instances
    assert pixel_strip._leds is None


def test_pico_driven_strip_is_not_opened_with_rpi_ws281x(fake_ws281x: ModuleType, profile: BoardProfile) -> None:
    settings = dataclasses.replace(profile.strip, driver=StripDriver.PICO)
    with pytest.raises(DeviceError, match="serial link"):
        Ws281xStrip(settings)
    assert fake_ws281x.instances == []


OPEN_STRIP = """
from conquista.devices.errors import DeviceError
from conquista.devices.ws281x import Ws281xStrip
from conquista.hardware.profile import load_profile
try:
    Ws281xStrip(load_profile().strip)
except DeviceError as exc:
    print(exc)
"""

RAW_LIBRARY = """
import rpi_ws281x
strip = rpi_ws281x.PixelStrip(150, 18)
try:
    strip.begin()
except RuntimeError as exc:
    print(exc)
"""


def run_on_a_non_pi(script: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(FAKES), env.get("PYTHONPATH")]))
    env["FAKE_WS281X_INIT_ERROR"] = "-3 (Hardware revision is not supported)"
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60,
                          check=False)


def test_the_fake_library_crashes_at_exit_like_the_real_one() -> None:
    # Control for the test below: left alone, a strip whose begin() failed kills the interpreter at exit.
    result = run_on_a_non_pi(RAW_LIBRARY)
    assert "ws2811_init failed" in result.stdout
    assert result.returncode == 139


def test_process_exits_cleanly_after_a_failed_strip() -> None:
    result = run_on_a_non_pi(OPEN_STRIP)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.count("\n") == 1
    assert result.stdout.startswith("LED strip on GPIO18: rpi-ws281x could not start")
