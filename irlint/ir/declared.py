"""What a Parameter or Const says of its own tensor, before any inference."""

from __future__ import annotations

from irlint.ir.model import Layer
from irlint.tensor import TensorInfo
from irlint.types import Shape, element_type, parse_shape


def declared_info(layer: Layer) -> TensorInfo:
    """A Parameter/Const's tensor as declared in `<data>` (falling back to its output port)."""
    et = element_type(layer.data.get("element_type", "")) if "element_type" in layer.data else None
    port = layer.outputs[0] if layer.outputs else None
    if et is None and port is not None:
        et = port.precision
    shape: Shape | None = None
    try:
        if "shape" in layer.data:
            return TensorInfo(et, parse_shape(layer.data["shape"]))  # "..." is a dynamic rank (None)
    except ValueError:
        pass
    if port is not None:
        shape = port.shape
    return TensorInfo(et, shape)
