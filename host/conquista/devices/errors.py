"""Errors of the devices layer."""

from __future__ import annotations

from conquista.errors import ConquistaError


class DeviceError(ConquistaError):
    """A device could not be opened or used; the message names the device, the pin or library, and what to do."""
