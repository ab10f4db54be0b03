"""Why exposing a body tensor can change what OpenVINO computes: the CPU plugin's memory, as `irlint.openvino`
models it. A probe makes a tensor a body Result, which takes it out of the in-place chain the plugin
would have computed over another buffer; the departure that chain caused then vanishes. The same
model that BE507, BE508 and PM414 read says, for `compare --inside`, which values the plugin reads
after writing over their memory."""

from __future__ import annotations

from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Model
from irlint.openvino.memory import overwrites
from irlint.shapes import ShapeResult, inferred


class _Facts:
    """What the memory analysis reads: the model's inferred shapes and an edge index per graph level."""

    def __init__(self, model: Model) -> None:
        self.shapes: ShapeResult = inferred(model)
        self._index: dict[int, GraphIndex] = {}

    def index(self, graph: Graph) -> GraphIndex:
        idx = self._index.get(id(graph))
        if idx is None:
            idx = self._index[id(graph)] = GraphIndex.build(graph)
        return idx


def in_place_departures(model: Model) -> list[dict[str, str]]:
    """Every value of every TensorIterator/Loop body that the CPU plugin reads after writing over its memory:
    the loop, the op computing in place (or the Parameter passed on), whose memory, and what overwrites it."""
    try:
        facts = _Facts(model)
    except Exception:  # shape inference failed: the rules report why; nothing to explain with
        return []
    out = []
    for _graph, layer in model.layers():
        if layer.type not in ("TensorIterator", "Loop") or layer.body is None:
            continue
        for o in overwrites(facts, layer):
            out.append({"loop": layer.name, "path": layer.path, "writer": o.writer.name if o.writer else "",
                        "memory_of": o.param.name, "how": o.kind.value,
                        "views": ", ".join(v.name for v in o.views)})
    return out
