"""Errors of the devices layer (defined with every other project error in conquista.errors)."""

from __future__ import annotations

from conquista.errors import ConquistaError, DeviceError

__all__ = ["ConquistaError", "DeviceError"]
