"""`run`: execute a model and return its outputs (the plain driver: no event objects)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from irlint.interp.executor import Listener, Options, evaluate
from irlint.ir.model import Model


def run(model: Model, inputs: Mapping[str, np.ndarray], options: Options | None = None,
        listener: Listener | None = None) -> dict[str, np.ndarray]:
    """Outputs keyed by top-level Result name; a `listener` (e.g. a `Trace`) sees every iteration."""
    return evaluate(model, inputs, options, listener)
