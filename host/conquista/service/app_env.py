"""The board's own installation of conquista: a wheel built from the source, installed into a virtual environment
that `conquista service install` owns (default /opt/conquista), which the systemd unit runs.

Why not the checkout the command runs from: that is usually an editable install, which costs every start a search
through the editable finder (about 20 ms on a desktop, several times that on a Zero-class Pi) and runs whatever
the checkout holds at the moment, half-edited files included. A normal install from a wheel starts faster and stays
as it was installed until the next `service install`.

The environment sees the system's site packages: Raspberry Pi OS ships gpiozero's lgpio backend as an apt package
(python3-lgpio), not on PyPI. Every step is a command run through a `Runner` (tests pass a fake one; nothing here
calls pip or venv itself), in order; the first that fails stops the install with one line, before the unit is
written.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from conquista.errors import ServiceError
from conquista.service.install import Runner, checked

APP_DIR = PurePosixPath("opt/conquista")   # under the root: the environment the unit runs
WHEEL_DIR = "wheels"                        # inside it: the wheel it was installed from, kept for a reinstall
DISTRIBUTION = "conquista"


@dataclass(frozen=True)
class AppEnv:
    """Where the board's installation goes, and what it is built from."""

    root: Path
    source: Path                    # the project directory (pyproject.toml) the wheel is built from
    extras: tuple[str, ...] = ()    # e.g. ("pi",): rpi-ws281x for a strip driven by the Pi
    python: str = sys.executable    # the interpreter that builds the wheel and creates the environment

    @property
    def directory(self) -> Path:
        return self.root / APP_DIR

    @property
    def executable(self) -> Path:
        return self.directory / "bin" / "conquista"

    @property
    def wheels(self) -> Path:
        return self.directory / WHEEL_DIR

    def commands_before_wheel(self) -> list[list[str]]:
        return [
            [self.python, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(self.wheels), str(self.source)],
        ]

    def commands_after_wheel(self, wheel: Path) -> list[list[str]]:
        spec = f"{wheel}[{','.join(self.extras)}]" if self.extras else str(wheel)
        # No --clear: it would take the kept wheels with it; pip replaces the previous installation instead.
        return [
            [self.python, "-m", "venv", "--system-site-packages", str(self.directory)],
            [str(self.directory / "bin" / "python"), "-m", "pip", "install", "--upgrade", "--force-reinstall",
             "--no-warn-script-location", spec],
        ]

    def describe(self) -> str:
        """What --dry-run prints for this step."""
        steps = [*self.commands_before_wheel(),
                 *self.commands_after_wheel(self.wheels / f"{DISTRIBUTION}-VERSION-py3-none-any.whl")]
        return "--- the board's installation, run first\n" + "\n".join(" ".join(c) for c in steps) + "\n"


def find_source(explicit: str | None) -> Path:
    """The project directory to build from: `--source`, else where this conquista was installed from (an editable
    install records it), else the checkout around this package. One line naming what to pass when none is found."""
    if explicit is not None:
        source = Path(explicit).resolve()
        if not (source / "pyproject.toml").is_file():
            raise ServiceError(f"--source {explicit}: no pyproject.toml there; pass the directory of conquista's "
                               "source (the one with pyproject.toml)")
        return source
    for candidate in (_recorded_source(), _checkout_around_package()):
        if candidate is not None and (candidate / "pyproject.toml").is_file():
            return candidate
    raise ServiceError("cannot find conquista's source to build the board's installation from: pass --source DIR "
                       "(the directory with pyproject.toml), or --in-place to run this environment's conquista")


def _recorded_source() -> Path | None:
    """The directory pip installed this distribution from (PEP 610 direct_url.json), if it was a local one."""
    from importlib import metadata

    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        url = json.loads(text).get("url", "") if text else ""
    except (ValueError, AttributeError):
        return None
    return Path(url.removeprefix("file://")) if isinstance(url, str) and url.startswith("file://") else None


def _checkout_around_package() -> Path | None:
    import conquista

    here = Path(conquista.__file__).resolve().parent
    return next((parent for parent in here.parents if (parent / "pyproject.toml").is_file()), None)


def build(env: AppEnv, run: Runner) -> Path:
    """Build the wheel and install it into the board's environment; returns the `conquista` it installed."""
    for command in env.commands_before_wheel():
        checked(run, command, "the board's installation was not changed")
    wheel = newest_wheel(env.wheels)
    for command in env.commands_after_wheel(wheel):
        checked(run, command, "the service was not installed")
    if not env.executable.is_file():
        raise ServiceError(f"{env.executable} is missing after installing {wheel.name}; the service was not "
                           "installed")
    return env.executable


def newest_wheel(wheels: Path) -> Path:
    found = sorted(wheels.glob(f"{DISTRIBUTION}-*.whl"), key=lambda p: p.stat().st_mtime) if wheels.is_dir() else []
    if not found:
        raise ServiceError(f"no {DISTRIBUTION} wheel was built in {wheels}; the service was not installed")
    return found[-1]


def extras_for(strip_on_pi: bool, extras: Sequence[str] = ()) -> tuple[str, ...]:
    """The install extras: `pi` (rpi-ws281x) when the Pi drives the strip itself."""
    return tuple(dict.fromkeys([*(("pi",) if strip_on_pi else ()), *extras]))
