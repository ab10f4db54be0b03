"""What a port without `<dim>` declares: a scalar, or a tensor of dynamic rank.

OpenVINO's serializer writes both the same way, a port with no `<dim>` child (a Parameter of
`shape="..."`, an Unsqueeze or Reduce whose axes are an input, and everything downstream of them).
The loader reads such a port as `()`; the rules that compare it with something else ask here which
one it is, from what else the file and inference know of the tensor (docs/rules.md, "Ports without
dims"):

- a Const is always a scalar (Consts have static shapes);
- a Parameter says it in `<data shape>`: `""` is a scalar, `"..."` a dynamic rank;
- any other op: a scalar if irlint infers a scalar, or infers every dim (OpenVINO would have written
  them); otherwise (unknown rank, or a rank with dynamic dims that OpenVINO may not have known) it
  is read as a dynamic rank and compared with nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from irlint.ir.model import Layer, Port
from irlint.tensor import TensorInfo
from irlint.types import Shape, parse_shape


def known_scalar_source(layer: Layer) -> bool | None:
    """For a dimless output of `layer`: True if the file itself says scalar, False if it says dynamic
    rank, None if only inference can tell."""
    if layer.type == "Const":
        return True
    if layer.type == "Parameter" and "shape" in layer.data:
        try:
            return parse_shape(layer.data["shape"]) is not None
        except ValueError:
            return True
    return None


def output_shape(layer: Layer, port: Port, inferred: Callable[[], TensorInfo] | None = None) -> Shape | None:
    """The shape output `port` of `layer` declares, None for a dynamic rank (or dims that do not parse)."""
    shape = port.shape
    if shape != ():
        return shape
    scalar = known_scalar_source(layer)
    if scalar is None and inferred is not None:
        got = inferred().shape
        scalar = got is not None and all(d.is_static for d in got)
    return () if scalar else None
