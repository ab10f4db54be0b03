"""Bodies drawn once: TI/Loop layers whose bodies are the same graph (a bidirectional LSTM's forward
and backward loop, the layers of a stacked LSTM) draw the first body and show the others as one
node that names it, which halves a bidirectional model's width.

Two bodies are the same when their layers have the same types, versions, attributes (a Const's
place in the `.bin` aside: the weights differ) and port element types in the same order, with the
same edges, back edges and port-map roles; layer names and the values of weights do not count, and
neither do shapes (the second layer of a stacked LSTM reads the first one's units, not the input's
features), but the node says when they differ.
"""

from __future__ import annotations

from collections.abc import Hashable

from irlint.ir.model import Graph, Layer, Model

WEIGHT_PLACE = ("offset", "size")  # a Const's attributes that say where its value is, not what it is


SHAPE_DATA = ("shape",)  # attributes that hold a shape (a Parameter's or Const's)


def _ports(layer: Layer, shapes: bool) -> tuple[Hashable, ...]:
    return tuple(
        (p.id, p.precision, None if p.shape is None or not shapes else tuple(p.shape))
        for p in (*layer.inputs, *layer.outputs)
    )


def signature(graph: Graph, shapes: bool = True) -> Hashable:
    """The structure of a body as a value: equal for bodies that differ only in names and weights (and
    in shapes, with `shapes` False)."""
    index = {la.id: i for i, la in enumerate(graph.layers)}
    layers = []
    for la in graph.layers:
        data = tuple(
            sorted(
                (k, v)
                for k, v in la.data.items()
                if not (la.type == "Const" and k in WEIGHT_PLACE) and (shapes or k not in SHAPE_DATA)
            )
        )
        entries = tuple(
            (
                e.direction,
                e.external_port_id,
                index.get(e.internal_layer_id),
                e.axis,
                e.start,
                e.end,
                e.stride,
                e.part_size,
                e.purpose,
            )
            for e in la.port_map
        )
        back = tuple((index.get(b.from_layer), b.from_port, index.get(b.to_layer), b.to_port) for b in la.back_edges)
        nested = tuple(signature(sub, shapes) for sub in la.subgraphs())
        layers.append((la.type, la.version, data, _ports(la, shapes), entries, back, nested))
    edges = tuple(
        sorted(
            (index.get(e.from_layer, -1), e.from_port or 0, index.get(e.to_layer, -1), e.to_port or 0)
            for e in graph.edges
        )
    )
    return tuple(layers), edges


def twins(model: Model) -> dict[str, Layer]:
    """TI/Loop path -> the earlier TI/Loop (in the file's order) whose body is the same, for every
    one but the first of each group of the same body."""
    first: dict[Hashable, Layer] = {}
    out: dict[str, Layer] = {}
    for _g, layer in model.layers():
        if layer.body is None:
            continue
        roles = tuple((e.internal_layer_id is not None, e.direction, e.purpose) for e in layer.port_map)
        key = (layer.type, signature(layer.body, shapes=False), roles)
        if key in first and not layer.path.startswith(first[key].path + "/"):
            out[layer.path] = first[key]
        else:
            first.setdefault(key, layer)
    return out


def same_shapes(a: Layer, b: Layer) -> bool:
    """Whether two twins' bodies have the same shapes too (else the node says "other shapes")."""
    assert a.body is not None and b.body is not None
    return signature(a.body) == signature(b.body)
