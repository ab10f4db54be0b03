"""`TensorInfo`: what is known of one tensor before running — the vocabulary that the IR's
declarations, shape inference, the ops' shape functions and the interpreter's checks share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from irlint.types import ElementType, Shape


@dataclass(frozen=True, slots=True)
class TensorInfo:
    """What is statically known of one tensor. `etype`/`shape` None = unknown; `value` = constant."""

    etype: ElementType | None
    shape: Shape | None
    value: np.ndarray | None = None

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)
