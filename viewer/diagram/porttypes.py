"""The element type every viewer shows for a port.

IR v10 writers leave `precision` off input ports always and off some output ports. The type is still
known: an output's from shape inference (the op's rule on its inputs' types), an input's from the port
that feeds it. The diagram, the HTML page and the Model Explorer adapter all label ports this way, so
one model reads the same in each; "?" only where neither source knows.
"""

from __future__ import annotations

from collections.abc import Mapping

from irlint.ir.model import Graph, Layer, Model, Port
from irlint.types import ElementType, format_shape


class PortTypes:
    """Element types of one model's ports. Shape inference runs only when an output port lacks its
    precision (it is the costly part, and most IR v11 files declare every type)."""

    def __init__(self, model: Model, inferred: Mapping[object, object] | None = None) -> None:
        self._model = model
        self._inferred = inferred
        self._fed: dict[int, dict[tuple[int | None, int | None], tuple[Layer, Port]]] = {}  # id(graph) -> ...

    def output(self, layer: Layer, port: Port) -> ElementType | None:
        if port.precision is not None or port.id is None:
            return port.precision
        from irlint.shapes.result import port_key

        return getattr(self._inference().get(port_key(layer, port.id)), "etype", None)

    def input(self, graph: Graph, layer: Layer, port: Port) -> ElementType | None:
        if port.precision is not None:
            return port.precision
        fed = self._feeders(graph).get((layer.id, port.id))
        return self.output(*fed) if fed is not None else None

    def output_label(self, layer: Layer, port: Port) -> str:
        return label(self.output(layer, port), port)

    def input_label(self, graph: Graph, layer: Layer, port: Port) -> str:
        return label(self.input(graph, layer, port), port)

    def _inference(self) -> Mapping[object, object]:
        if self._inferred is None:
            from irlint.shapes import infer_model

            try:
                self._inferred = infer_model(self._model).outputs
            except Exception:  # a label must not depend on shape inference succeeding
                self._inferred = {}
        return self._inferred

    def _feeders(self, graph: Graph) -> dict[tuple[int | None, int | None], tuple[Layer, Port]]:
        fed = self._fed.get(id(graph))
        if fed is None:
            fed = {}
            for e in graph.edges:
                src = graph.layer(e.from_layer)
                sp = next((q for q in src.outputs if q.id == e.from_port), None) if src is not None else None
                if src is not None and sp is not None:
                    fed.setdefault((e.to_layer, e.to_port), (src, sp))
            self._fed[id(graph)] = fed
        return fed


def label(etype: ElementType | None, port: Port) -> str:
    """`f32[1,512]`, or `?[1,512]` when the type is unknown."""
    return f"{etype.name if etype else '?'}{format_shape(port.shape)}"
