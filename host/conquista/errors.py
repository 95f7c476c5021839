"""The project's error types. Every error a user can cause is a ConquistaError, so the CLI prints one line."""

from __future__ import annotations


class ConquistaError(Exception):
    """Base for every error the product reports to a user (exit code 2 in the CLI)."""


class MapError(ConquistaError):
    """A map file is missing, malformed or inconsistent; the message names the file and the entry."""


class RulesetError(ConquistaError):
    """A ruleset is unknown or has a bad parameter; the message names the ruleset and the key."""


class IllegalActionError(ConquistaError, ValueError):
    """An action is not legal in the current state; the message names the action, territories and phase."""


class LogError(ConquistaError):
    """A game log is corrupt or does not match; the message names the file, the line and the reason."""
