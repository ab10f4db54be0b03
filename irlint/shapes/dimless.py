"""What a port without `<dim>` declares: a scalar, or a tensor of dynamic rank.

OpenVINO's serializer writes both the same way, a port with no `<dim>` child (a Parameter of
`shape="..."`, an Unsqueeze or Reduce whose axes are an input, and everything downstream of them).
The loader reads such a port as `()`; the rules that compare it with something else ask here which
one it is, from what else the file and inference know of the tensor (docs/rules.md, "Ports without
dims"):

- a Const is always a scalar (Consts have static shapes);
- a Parameter says it in `<data shape>`: `""` is a scalar, `"..."` a dynamic rank;
- any other op: a dynamic rank if one of its inputs without `<dim>` comes from a dynamic rank the
  file declares (a Parameter of `shape="..."` and the dims-less ports that follow it: in an If
  branch that never runs, OpenVINO leaves them as they were when the model was built, whatever the
  If receives now); otherwise a scalar if irlint infers a scalar, or infers every dim (OpenVINO would
  have written them); otherwise (unknown rank, or a rank with dynamic dims that OpenVINO may not have
  known) it is read as a dynamic rank and compared with nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer, Port
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


def declared_dynamic_ranks(graph: Graph, index: GraphIndex) -> frozenset[int]:
    """Ids of the layers of one level whose outputs without `<dim>` the file itself declares to be of
    dynamic rank: Parameters of `shape="..."`, and ops fed through a dims-less input by one of them."""
    if not any(la.type == "Parameter" and known_scalar_source(la) is False for la in graph.layers):
        return frozenset()  # nothing declares a dynamic rank: no need to walk the level in order
    dynamic: set[int] = set()
    for layer in index.topological_order():
        if layer.id is None:
            continue
        scalar = known_scalar_source(layer)
        if scalar is not None:
            if not scalar:
                dynamic.add(layer.id)
            continue
        for p in layer.inputs:
            e = index.source(layer.id, p.id) if p.shape == () else None
            if e is not None and e.from_layer in dynamic:
                dynamic.add(layer.id)
                break
    return frozenset(dynamic)


def output_shape(layer: Layer, port: Port, inferred: Callable[[], TensorInfo] | None = None,
                 declared_dynamic: frozenset[int] = frozenset()) -> Shape | None:
    """The shape output `port` of `layer` declares, None for a dynamic rank (or dims that do not parse);
    `declared_dynamic` is `declared_dynamic_ranks` of the layer's level."""
    shape = port.shape
    if shape != ():
        return shape
    if layer.id in declared_dynamic:
        return None
    scalar = known_scalar_source(layer)
    if scalar is None and inferred is not None:
        got = inferred().shape
        scalar = got is not None and all(d.is_static for d in got)
    return () if scalar else None
