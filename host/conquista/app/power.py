"""Switching the board off from the table (NEXT held for 5 s, then ROLL): the profile's shutdown command runs after
the journal is closed and the LEDs are dark. The simulator reports the command instead of running it."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence


def switch_off(command: Sequence[str] | None, say: Callable[[str], object],
               run: Callable[[list[str]], int] | None = None, *, simulated: bool = False) -> int:
    """Run the shutdown command (none configured: say how to add one); returns its exit status (0 without one).
    `simulated`: only say what would run."""
    if simulated:
        would = f"a real board would now run: {' '.join(command)}" if command else \
            "a real board runs no command (its profile has no [power] shutdown_command)"
        say(f"switched off: the game is saved and the LEDs are dark; {would} (the simulator runs nothing)")
        return 0
    if not command:
        say("switched off: the game is saved and the LEDs are dark; to power the Pi off too, set "
            "[power] shutdown_command in the board profile (e.g. \"sudo systemctl poweroff\")")
        return 0
    say(f"switched off: the game is saved and the LEDs are dark; running {' '.join(command)}")
    try:
        status = (run or _run)(list(command))
    except OSError as exc:
        say(f"the shutdown command {command[0]!r} could not run ({exc.strerror}); fix [power] shutdown_command "
            "in the board profile")
        return 2
    if status != 0:
        say(f"the shutdown command exited with status {status}; check [power] shutdown_command in the board "
            "profile (may the service's user run it without a password?)")
    return status


def _run(argv: list[str]) -> int:
    return subprocess.run(argv, check=False).returncode
