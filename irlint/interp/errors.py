"""Why a run stopped: a value, with the layer it concerns, turned into a diagnostic by the CLI."""

from __future__ import annotations

from irlint.ir.model import Layer


class ExecutionError(Exception):
    """The model cannot be run as given (unknown op, bad input, budget, endless loop ...)."""

    def __init__(self, message: str, layer: Layer | None = None, code: str = "RUN") -> None:
        super().__init__(message)
        self.message = message
        self.layer = layer
        self.code = code
