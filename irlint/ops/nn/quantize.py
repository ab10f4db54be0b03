"""FakeQuantize-1: clamp to [input_low, input_high], quantise to `levels` steps, map to the output range.

As the reference kernel: x <= min(il, ih) gives output_low, x > max(il, ih) gives output_high, and
otherwise round-half-to-even((x - il) / (ih - il) * (levels - 1)) / (levels - 1) * (oh - ol) + ol.
The four range inputs broadcast against the data (numpy rules, or equal shapes for "none").
`levels = 0`, what OpenVINO reads when the IR leaves `levels` out (T217), maps the clamped input
linearly, without rounding, as the CPU plugin does (measured: scripts/attribute_defaults.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import broadcast_result, same_etype
from irlint.ops.registry import register
from irlint.types import static_shape


@dataclass(frozen=True)
class FakeQuantizeAttrs:
    levels: int
    auto_broadcast: str = "numpy"


@register
class FakeQuantize(Op):
    types = ("FakeQuantize",)
    versions = ("opset1",)
    Attrs = FakeQuantizeAttrs
    arity = (5, 5)
    infer_reads_values = False

    def infer(self, attrs: FakeQuantizeAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.levels < 2 and attrs.levels != 0:
            raise OpError(f"FakeQuantize: levels must be at least 2, got {attrs.levels}")
        etype = same_etype("FakeQuantize", inputs)
        if etype is not None and not etype.is_float:
            raise OpError(f"FakeQuantize: inputs must be floating-point, got {etype}")
        shape = broadcast_result("FakeQuantize", attrs.auto_broadcast.lower(), [i.shape for i in inputs])
        return [TensorInfo(etype, shape)]

    def compute(self, attrs: FakeQuantizeAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        self.infer(attrs, [TensorInfo(None, static_shape(np.shape(a))) for a in inputs])
        xf, il, ih, ol, oh = (np.asarray(a, np.float64) for a in inputs)
        steps = attrs.levels - 1
        with np.errstate(divide="ignore", invalid="ignore"):
            if attrs.levels == 0:
                q = (xf - il) / (ih - il) * (oh - ol) + ol
            else:
                q = np.rint((xf - il) / (ih - il) * steps) / steps * (oh - ol) + ol
        y = np.where(xf <= np.minimum(il, ih), ol, np.where(xf > np.maximum(il, ih), oh, q))
        return [np.asarray(y).astype(x.dtype)]
