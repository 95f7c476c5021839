"""The project's error types, all of them, in one place. Every error a user can cause is a ConquistaError, so the CLI
prints one line and exits 2. Modules re-export the classes they raise under the names they always had.

The firmware-shared wire codec (`link/codec.py`) runs under MicroPython too and cannot import this module: it
raises the builtin ValueError, and `link/frames.py` on the host turns what it cannot decode into counters.
"""

from __future__ import annotations

from enum import Enum


class ConquistaError(Exception):
    """Base for every error the product reports to a user (exit code 2 in the CLI)."""


# ---------------------------------------------------------------------------------------------- rules, dice

class MapError(ConquistaError):
    """A map file is missing, malformed or inconsistent; the message names the file and the entry."""


class RulesetError(ConquistaError):
    """A ruleset is unknown or has a bad parameter; the message names the ruleset and the key."""


class IllegalActionError(ConquistaError, ValueError):
    """An action is not legal in the current state.

    The message names the action, its territories, the phase and the reason; the same parts are fields, so a
    caller (the referee) shows `reason` without parsing the text.
    """

    # Typed loosely: this module sits below every layer and imports none (action: a rules Action, phase: a Phase).
    def __init__(self, message: str, *, action: object = None, phase: Enum | None = None,
                 player: int | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.action = action
        self.phase = phase
        self.player = player
        self.reason = reason or message


class LogError(ConquistaError):
    """A game log is corrupt or does not match; the message names the file, the line and the reason."""


class DecodeError(ConquistaError, ValueError):
    """An encoded action (a line of a game log, a journal row) is malformed; the message names the field."""


class OddsError(ConquistaError, ValueError):
    """An odds question with no meaning (negative armies, a stop level below 1, an unsupported dice rule)."""


class SeedError(ConquistaError):
    """A committed-dice seed is malformed or does not match its commitment."""


class AuditError(ConquistaError):
    """The input of an audit is wrong: not a game log, a malformed line, a seed that does not fit."""


# ------------------------------------------------------------------------------------------ board, devices

class ProfileError(ConquistaError):
    """A board profile is missing, malformed or inconsistent; the message names the file, the key and the fix."""


class DeviceError(ConquistaError):
    """A device could not be opened or used; the message names the device, the pin or library, and what to do."""


class LinkError(ConquistaError):
    """The Pico cannot be found or its port cannot be opened; the message names the port and what to do."""


class BoardToolError(ConquistaError):
    """Bad input to a builder's tool (calibrate, check, diagram); the message names the culprit and the fix."""


class CalibrationError(BoardToolError):
    """A saved calibration that cannot be resumed, or answers that cannot make a profile."""


class ServiceError(ConquistaError):
    """The boot unit could not be installed, inspected or removed; the message names the file or command and the fix."""


class SimulatedPicoError(ConquistaError):
    """The simulated Pico cannot start: the firmware sources are missing or the address is not loopback."""


# -------------------------------------------------------------------------------------------------- journal

class JournalError(ConquistaError):
    """The journal cannot be used; the message names the file and the fix."""


class NotAJournalError(JournalError):
    """The file is not a conquista game journal (refused: it is never overwritten)."""


class JournalUnavailableError(JournalError):
    """The operating system or SQLite refused to open or create the journal (read-only, not a directory, ...)."""


class GameDamaged(JournalError):
    """A saved game's rows are not whole; the message says what is wrong (without any of its content)."""


class GameRefusedError(JournalError):
    """A saved game is damaged and the backup cannot restore it whole: it is refused, never resumed shorter."""


# ------------------------------------------------------------------------------------------------- web app

class WebError(ConquistaError):
    """The web app cannot start (busy port, bad address); the message names the address and the fix."""


class BadMessage(ConquistaError, ValueError):
    """A screen's message that is not one the server takes; its text goes back to that screen in an error frame."""


# ---------------------------------------------------------------------------------------------- command line

class UsageError(ConquistaError):
    """Bad command-line input that argparse itself cannot see (a range, a combination)."""


class SimMcuUsageError(ConquistaError):
    """A bad --listen address."""


class DeployError(ConquistaError):
    """mpremote failed or is missing; the message names the port and the fix."""
