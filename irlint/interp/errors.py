"""Why a run stopped: a value, with the layer it concerns, turned into a diagnostic by the CLI."""

from __future__ import annotations

from irlint.ir.model import Layer

# Codes that mean irlint could not run the model (exit 2), not that the model stopped (exit 1): a bug in
# a kernel, or a file that changed under the run (the .bin truncated or replaced since it was loaded).
COULD_NOT_RUN = frozenset({"RUN-INTERNAL", "RUN-READ"})


class ExecutionError(Exception):
    """The model cannot be run as given (unknown op, bad input, budget, endless loop ...)."""

    @property
    def could_not_run(self) -> bool:
        """Whether irlint, not the model, is why the run stopped (exit 2: see `COULD_NOT_RUN`)."""
        return self.code in COULD_NOT_RUN

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
