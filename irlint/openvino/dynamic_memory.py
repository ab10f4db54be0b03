"""Which dynamic tensor can take an If output's memory block before the If's reader runs.

The CPU plugin runs a graph of dynamic shapes in sections cut at its sync nodes, the nodes whose output
shapes depend on values (If, Loop, TensorIterator, NonZero, Unique): before a section runs, it updates
the shapes and memory of all its nodes (src/plugins/intel_cpu/src/graph.cpp, Graph::InferDynamic).
Intermediate tensors of dynamic shape (not a graph input, not read by a Result) whose lifetimes do not
overlap share one resizable memory block (memory_control.cpp, MemoryManageNonOverlapingSets), and a
block grown past its size is reallocated without its contents (cpu_memory.cpp,
MemoryBlockWithReuse::resize). An If registers its sync point at its input's position while its
outputs live from its output's position on (graph.cpp, RegisterToAllocationContext), so its outputs'
lifetimes are not extended as other sync nodes' are: a wider tensor produced after the If's last reader,
in the reader's section, can share the If output's block and grow it before the reader runs. The reader
then reads memory the If did not write. Only an inference that changes shapes grows a block: the first
one, a new input shape, the first iteration of a loop body holding the If.

Which intermediate tensors the plugin keeps is modelled where measured: the tensor between two Converts
(the plugin fuses a Convert into an Eltwise next to it), and, at the top level, the output of a layer
feeding a Result whose type the plugin computes in another one (ConvertPrecision computes it in that
type and converts it back before the Result). The sizes compared are per element.
"""

from __future__ import annotations

from dataclasses import dataclass

from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer
from irlint.openvino.facts import Facts, plugin_order
from irlint.openvino.precision import EXECUTED_AS, WIDEST, executed_as, plugin_bytes

# Ops whose output shapes the plugin infers from values: they cut a dynamic graph into sections.
SYNC_TYPES = frozenset({"If", "Loop", "TensorIterator", "NonZero", "Unique"})


@dataclass(frozen=True)
class Intermediate:
    """A dynamic tensor the plugin allocates between two of its nodes, in the type it computes it in."""

    producer: Layer
    port: int | None
    etype: str


def _etype(facts: Facts, layer: Layer, port: int | None) -> str | None:
    et = facts.shapes.output(layer, port).etype
    return et.name if et is not None and not et.is_dynamic else None


def _dynamic(facts: Facts, layer: Layer, port: int | None) -> bool:
    shape = facts.shapes.output(layer, port).shape
    return shape is None or any(d.value is None for d in shape)


def intermediates(facts: Facts, graph: Graph, top_level: bool) -> list[Intermediate]:
    """The dynamic tensors of `graph` the plugin keeps between two of its nodes (see the module's doc)."""
    idx = facts.index(graph)
    found: list[Intermediate] = []
    for la in graph.layers:
        for port in la.outputs:
            readers = [graph.layer(e.to_layer) for e in idx.edges_out(la.id, port.id)]
            etype = _etype(facts, la, port.id)
            if etype is None or not _dynamic(facts, la, port.id):
                continue
            between_converts = la.type == "Convert" and any(r is not None and r.type == "Convert" for r in readers) \
                and not any(r is not None and r.type == "Result" for r in readers)
            converted_back = top_level and etype in EXECUTED_AS and any(
                r is not None and r.type == "Result" for r in readers)
            if between_converts or converted_back:
                found.append(Intermediate(la, port.id, executed_as(etype)))
    return found


def overtaking(facts: Facts, graph: Graph, layer: Layer, port: int | None, top_level: bool) -> Intermediate | None:
    """A wider dynamic tensor that can take the memory block of `layer`'s output `port` (an If's) after
    the If wrote it and before its last reader runs; None when there is none or the output is not at risk
    (static, read only by Results)."""
    etype = _etype(facts, layer, port)
    size = plugin_bytes(etype) if etype is not None else None
    if size is None or size >= WIDEST or not _dynamic(facts, layer, port):
        return None  # nothing the plugin holds is wider than 4 bytes an element
    idx: GraphIndex = facts.index(graph)
    readers = [r for e in idx.edges_out(layer.id, port) if (r := graph.layer(e.to_layer)) is not None]
    if not readers or all(r.type == "Result" for r in readers):
        return None
    order = plugin_order(graph, idx)
    last = max(order.get(r.id, -1) for r in readers)
    sync = sorted(order[la.id] for la in graph.layers if la.type in SYNC_TYPES and la.id in order)
    for tensor in intermediates(facts, graph, top_level):
        at = order.get(tensor.producer.id, -1)
        wider = (plugin_bytes(tensor.etype) or 0) > size
        if at > last and wider and not any(last < s < at for s in sync):
            return tensor
    return None
