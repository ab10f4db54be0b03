"""`run`: execute a model and return its outputs (the event stream, consumed and dropped)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from irlint.interp.events import RunFinished
from irlint.interp.executor import Options, execute
from irlint.ir.model import Model


def run(model: Model, inputs: Mapping[str, np.ndarray], options: Options | None = None) -> dict[str, np.ndarray]:
    """Outputs keyed by top-level Result name."""
    outputs: dict[str, np.ndarray] = {}
    for event in execute(model, inputs, options):
        if isinstance(event, RunFinished):
            outputs = dict(event.outputs)
    return outputs
