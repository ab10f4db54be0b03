"""The activation names RNN cells accept (`activations`, with `activations_alpha`/`_beta`).

Each computes in its argument's type (the cells pass f32 or f64 arrays): numpy keeps Python float
constants weak, so `a * x + b` on a float32 array stays float32, as the core reference's T does."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from irlint.ops.base import OpError
from irlint.ops.math.elementwise import sigmoid_in_place

Array = np.ndarray


def _param(values: Sequence[float], i: int, default: float) -> float:
    return values[i] if i < len(values) else default


def activation(name: str, alpha: Sequence[float], beta: Sequence[float], index: int) -> Callable[[Array], Array]:
    """The function for activation `name` (the `index`-th of the cell, for its alpha/beta)."""
    a = _param(alpha, index, 0.01)
    b = _param(beta, index, 0.0)
    table: dict[str, Callable[[Array], Array]] = {
        "sigmoid": sigmoid_in_place,
        "tanh": np.tanh,
        "relu": lambda x: np.maximum(x, 0.0),
        "affine": lambda x: a * x + b,
        "leakyrelu": lambda x: np.where(x >= 0, x, a * x),
        "thresholdedrelu": lambda x: np.where(x > a, x, 0.0),
        "scaledtanh": lambda x: a * np.tanh(b * x),
        "hardsigmoid": lambda x: np.clip(a * x + b, 0.0, 1.0),
        "elu": lambda x: np.where(x >= 0, x, a * (np.exp(np.minimum(x, 0)) - 1)),
        "softsign": lambda x: x / (1 + np.abs(x)),
        "softplus": lambda x: np.log1p(np.exp(x)),
    }
    fn = table.get(name.strip().lower())
    if fn is None:
        raise OpError(f"unsupported RNN activation {name!r} (known: {', '.join(sorted(table))})")
    return fn
