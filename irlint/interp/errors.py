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


class RaggedParts(ExecutionError):
    """A concatenated output whose parts differ off its axis: no value (an output nothing reads needs none)."""


class DepartureWarning(UserWarning):
    """The run gives the spec's answer (or irlint's documented choice) where OpenVINO's CPU plugin fails
    or returns undefined values (docs/semantics.md); issued with `warnings.warn`, the run goes on."""
