"""Writing, enabling, inspecting and removing the unit and the udev rule under a root directory.

The root is "/" on the board, and a temporary directory in the tests (and for building an image): nothing here
knows which. Both files are written next to their final place and renamed into it, after the commands that need
the real system have been planned, so an install that fails leaves the system as it was.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from conquista.errors import ServiceError as ServiceError
from conquista.service.units import PICO_LINK, RULE_DIR, RULE_NAME, UNIT_DIR, UNIT_NAME

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def run_command(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(list(command), capture_output=True, text=True, check=False, timeout=60)
    except FileNotFoundError:
        raise ServiceError(f"{command[0]} is not installed; conquista service needs systemd "
                           "(Raspberry Pi OS and Debian have it)") from None


@dataclass(frozen=True)
class Plan:
    files: dict[Path, str]           # absolute path → content
    commands: list[list[str]]        # run after the files are in place, in order


def unit_path(root: Path) -> Path:
    return root / UNIT_DIR / UNIT_NAME


def rule_path(root: Path) -> Path:
    return root / RULE_DIR / RULE_NAME


def _systemctl(root: Path, *args: str) -> list[str]:
    # With another root systemctl works on the files alone (enable = a symlink), with no running systemd.
    return ["systemctl", *(() if root == Path("/") else (f"--root={root}",)), *args]


def plan_install(root: Path, unit: str, rule: str) -> Plan:
    commands = [_systemctl(root, "enable", UNIT_NAME)]
    if root == Path("/"):
        commands = [["systemctl", "daemon-reload"], *commands,
                    ["udevadm", "control", "--reload-rules"], ["udevadm", "trigger", "--subsystem-match=tty"]]
    return Plan({unit_path(root): unit, rule_path(root): rule}, commands)


def describe(plan: Plan) -> str:
    """What --dry-run prints: every file with its content, then every command."""
    parts = [f"--- {path}\n{content}" for path, content in plan.files.items()]
    parts.append("--- then run\n" + "\n".join(" ".join(c) for c in plan.commands) + "\n")
    return "\n".join(parts)


def install(plan: Plan, run: Runner = run_command) -> None:
    previous = {path: path.read_text(encoding="utf-8") if path.exists() else None for path in plan.files}
    staged: list[tuple[Path, Path]] = []
    try:
        for path, content in plan.files.items():
            staged.append((_stage(path, content), path))
        for temporary, path in staged:
            os.replace(temporary, path)
        for command in plan.commands:
            _checked(run, command)
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        _restore(previous)
        raise


def _stage(path: Path, content: str) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(name, 0o644)
    except OSError as exc:
        raise ServiceError(f"cannot write {path}: {exc.strerror}; run the command with sudo") from None
    return Path(name)


def _restore(previous: dict[Path, str | None]) -> None:
    for path, content in previous.items():
        if content is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(content, encoding="utf-8")


def _checked(run: Runner, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return checked(run, command, "nothing was installed")


def checked(run: Runner, command: Sequence[str], then: str) -> subprocess.CompletedProcess[str]:
    """Run `command`; a failure is one line: the command, the first line it printed about it, and `then`."""
    result = run(command)
    if result.returncode != 0:
        why = [line for line in (result.stderr or result.stdout).strip().splitlines() if line.strip()]
        reason = why[0].strip() if why else f"exit {result.returncode}"
        raise ServiceError(f"`{' '.join(command)}` failed ({reason}); {then}")
    return result


def uninstall(root: Path, run: Runner = run_command) -> list[Path]:
    """Disable and remove what `install` wrote; returns the files removed (none when it was not installed)."""
    present = [p for p in (unit_path(root), rule_path(root)) if p.exists()]
    if not present:
        return []
    if unit_path(root).exists():
        _checked(run, _systemctl(root, "disable", *(("--now",) if root == Path("/") else ()), UNIT_NAME))
    for path in present:
        try:
            path.unlink()
        except OSError as exc:
            raise ServiceError(f"cannot remove {path}: {exc.strerror}; run the command with sudo") from None
    if root == Path("/"):
        _checked(run, ["systemctl", "daemon-reload"])
        _checked(run, ["udevadm", "control", "--reload-rules"])
    return present


@dataclass(frozen=True)
class Status:
    unit: Path | None
    rule: Path | None
    enabled: str          # systemctl is-enabled: "enabled", "disabled", ... or "not installed"
    active: str           # systemctl is-active, or "unknown" under another root
    pico: str | None      # where /dev/conquista-pico points, when the Pico is plugged in

    @property
    def installed(self) -> bool:
        return self.unit is not None and self.rule is not None

    def lines(self) -> list[str]:
        out = [f"unit:    {self.unit or 'not installed'}",
               f"udev:    {self.rule or 'not installed'}",
               f"enabled: {self.enabled}",
               f"running: {self.active}",
               f"Pico:    {self.pico or f'/dev/{PICO_LINK} absent (Pico unplugged, or the udev rule not loaded yet)'}"]
        if self.active == "failed":
            out.append("the referee stopped after failing: `journalctl -u conquista -e` shows why")
        return out


def status(root: Path, run: Runner = run_command) -> Status:
    unit, rule = unit_path(root), rule_path(root)
    enabled = run(_systemctl(root, "is-enabled", UNIT_NAME)).stdout.strip() if unit.exists() else "not installed"
    active = "unknown"
    if root == Path("/"):
        active = run(["systemctl", "is-active", UNIT_NAME]).stdout.strip() or "unknown"
    link = root / "dev" / PICO_LINK
    pico = os.path.realpath(link) if link.exists() else None
    return Status(unit if unit.exists() else None, rule if rule.exists() else None, enabled or "unknown", active,
                  pico)
