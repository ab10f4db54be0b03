"""Is a body value read after the CPU plugin has written over its memory? One answer per loop.

The plugin's TensorIterator node (src/plugins/intel_cpu/src/nodes/tensoriterator.cpp) runs a loop as
copies between memories around each run of the body:

- `first_mappers`, once before the loop: each invariant input and each merged input's initial value is
  copied into its body Parameter's memory (prepareInputPorts, map_rule.axis == -1);
- `before_mappers`, at the start of every iteration, in this order: each sliced input's slice into its
  Parameter's memory (prepareInputPorts, PortIteratorHelper), the current iteration
  (prepareLoopBodyCurrentIteration), then each back edge's copy from its Result's memory into its
  Parameter's (prepareBackEdges, BackEdgePortHelper, skipped in iteration 0), in the order of the
  loop's input descriptions (the port_map's <input> entries as OpenVINO's IR reader keeps them);
- the body (Graph::Infer), whose in-place nodes write into the memories `inplace` finds;
- `after_mappers`: each concatenated output copies its Result's memory out; after the loop
  `last_mappers` copies the last-value outputs.

A Result's memory is the memory of the value it reads (createPrimitive: output_mem is the Result
node's source memory), so a back edge whose value lives in a Parameter's memory is copied only after
that memory was written again at the start of the next iteration: by the next slice (a sliced
Parameter), or by an earlier back edge's copy (another state's Parameter). An in-place op over an
invariant input's memory changes what every later iteration reads as that input. A departure counts
only where it is read: a back edge's Parameter that nothing in the body reads hides it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from irlint.controlflow import EntryKind, loop_plan
from irlint.controlflow.liveness import read_layers
from irlint.ir.index import GraphIndex
from irlint.ir.model import BackEdge, Graph, Layer
from irlint.openvino import inplace
from irlint.openvino.facts import Facts, fed_by, plugin_order, same_shape, shape
from irlint.openvino.nodes import IN_PLACE_BINARY, VIEWS
from irlint.openvino.shared import canonical


class Kind(Enum):
    """Which copy or op writes over the memory before it is read."""

    SLICE_OVER_VALUE = "the next slice is copied over a back edge's value computed in place"
    STATE_OVER_VALUE = "another back edge's copy runs over a back edge's value computed in place"
    SLICE_PASSED = "the next slice is copied over the sliced input a back edge passes on"
    STATE_PASSED = "another back edge's copy runs over the state Parameter a back edge passes on"
    INVARIANT_WRITTEN = "a body op writes over an invariant input's memory"
    ITERATION_PASSED = "the next iteration number is written over the current_iteration Parameter passed on"


@dataclass(frozen=True)
class Overwrite:
    """One value the plugin reads after writing over its memory.

    `param` owns the memory; `writer` is the op computing in place there (None: the value is `param`
    itself, through `views`); `back_edge` is the edge whose copy reads the memory (None for an invariant
    input); `fused` is a first op fused with `writer` into one node; `before` are the other readers of an
    invariant input that run before `writer`; `views` may hold Converts the plugin removes on the way
    (PM414's scalar form); `scalar` marks that form; `then` are the binary ops fused after `writer` into
    its node, still in `param`'s memory (that form too).
    """

    kind: Kind
    param: Layer
    writer: Layer | None = None
    views: tuple[Layer, ...] = ()
    back_edge: BackEdge | None = None
    fused: Layer | None = None
    before: tuple[Layer, ...] = ()
    scalar: bool = False
    then: tuple[Layer, ...] = ()


def overwrites(facts: Facts, layer: Layer, kinds: frozenset[Kind] = frozenset(Kind)) -> list[Overwrite]:
    """Every value of `layer`'s body (a TensorIterator or Loop) that the CPU plugin reads after it wrote over
    its memory, of `kinds`, in back-edge then invariant-input order. Asking only for SLICE_PASSED,
    STATE_PASSED and ITERATION_PASSED reads no shapes."""
    body = layer.body
    if body is None:
        return []
    idx = facts.index(body)
    out = _back_edge_overwrites(facts, layer, body, idx, kinds)
    if Kind.INVARIANT_WRITTEN in kinds:
        out += _invariant_overwrites(facts, layer, body, idx)
    return [o for o in out if o.kind in kinds]


def _read(body: Graph, idx: GraphIndex, be: BackEdge) -> bool:
    """Whether the body reads the Parameter a back edge feeds (otherwise what it receives is never seen)."""
    p = body.layer(be.to_layer)
    return p is not None and bool(idx.users(p))


def _runs_once(layer: Layer) -> bool:
    """A TensorIterator none of whose sliced Parameters the body reads: OpenVINO removes those inputs before the
    plugin counts the iterations from the slices, so the body runs once and no back edge is ever copied
    (PM410 says so)."""
    plan = loop_plan(layer)
    sliced = {pe.body_layer for pe in plan.of(EntryKind.SLICED_INPUT)}
    return not plan.is_loop and bool(sliced) and layer.body is not None and not (sliced & read_layers(layer.body))


def _copy_order(layer: Layer) -> dict[int | None, int]:
    """The position of each back edge's copy among the `before_mappers`, by its Parameter's id: the loop's
    input descriptions in port_map order (measured: a <- b, b <- a gives both b's value exactly when a's
    entry comes first)."""
    order: dict[int | None, int] = {}
    for pe in loop_plan(layer).of(EntryKind.MERGED_INPUT):
        order.setdefault(pe.body_layer, len(order))
    return order


def _back_edge_overwrites(
    facts: Facts, layer: Layer, body: Graph, idx: GraphIndex, kinds: frozenset[Kind]
) -> list[Overwrite]:
    if not layer.back_edges or _runs_once(layer):
        return []
    plan = loop_plan(layer)
    sliced = {pe.body_layer for pe in plan.of(EntryKind.SLICED_INPUT)}
    invariant = {pe.body_layer for pe in plan.of(EntryKind.INVARIANT_INPUT)}
    merged = {be.to_layer for be in layer.back_edges}
    copies = _copy_order(layer)
    current = plan.current_iteration.body_layer if plan.current_iteration is not None else None
    out: list[Overwrite] = []
    for be in layer.back_edges:
        res = body.layer(be.from_layer)
        if res is None or res.type != "Result" or not res.inputs or not _read(body, idx, be):
            continue
        views, src = _through_views(body, idx, res)
        if src is not None and src.type == "Parameter" and src.id != be.to_layer:
            if src.id == current:  # prepareLoopBodyCurrentIteration runs before prepareBackEdges
                out.append(Overwrite(Kind.ITERATION_PASSED, src, views=tuple(views), back_edge=be))
            elif src.id in sliced and be.to_layer not in sliced:
                out.append(Overwrite(Kind.SLICE_PASSED, src, views=tuple(views), back_edge=be))
            elif (
                src.id in merged
                and copies.get(src.id, 1 << 30) < copies.get(be.to_layer, -1)
                and _changes(body, idx, layer, src)
            ):
                out.append(Overwrite(Kind.STATE_PASSED, src, views=tuple(views), back_edge=be))
            continue
        if not kinds & {Kind.SLICE_OVER_VALUE, Kind.STATE_OVER_VALUE}:
            continue
        found = _written_in_place(facts, body, idx, layer, be, (sliced | invariant) - merged)
        if found is not None:
            kind, view, param, fused, writer = found
            out.append(Overwrite(kind, param, writer, (view,), be, fused))
    return out


def _changes(body: Graph, idx: GraphIndex, layer: Layer, p: Layer) -> bool:
    """Whether the back edge into `p` passes on something else than `p` itself (a copy of `p` onto itself
    writes nothing new)."""
    for be in layer.back_edges:
        if be.to_layer == p.id:
            res = body.layer(be.from_layer)
            _, src = _through_views(body, idx, res) if res is not None else ([], None)
            return src is None or src.id != p.id
    return False


def _written_in_place(
    facts: Facts, body: Graph, idx: GraphIndex, layer: Layer, be: BackEdge, fed: set[int | None]
) -> tuple[Kind, Layer, Layer, Layer | None, Layer] | None:
    """(kind, the view, its Parameter, the fused first op, the in-place op) when the value the back edge
    passes on is computed in place in a sliced or invariant Parameter's memory, or in another state's whose
    copy runs first; None otherwise."""
    res = body.layer(be.from_layer)
    states = inplace.changed_states(body, idx, layer, be)
    chain = inplace.chain_to(body, idx, fed_by(body, idx, res, 0))
    for i, e in enumerate(chain):
        if e.type not in IN_PLACE_BINARY or len(e.inputs) != 2:
            continue
        if not inplace.may_write_over(fed_by(body, idx, e, 0), fed_by(body, idx, e, 1)):
            continue  # in_place_view would say None: tested first, as it is the cheapest
        if i and len(idx.users(e)) != 1:
            continue
        if i and not same_shape(facts, e, chain[0]):
            continue  # the tail gives the back edge another shape
        found = inplace.in_place_view(facts, body, idx, e, fed | states, states)
        after = chain[i - 1] if i else None  # the layer right after E
        if found is not None and not (found[2] is None and after is not None and after.type in VIEWS):
            view, param, fused = found
            kind = Kind.STATE_OVER_VALUE if param.id in states else Kind.SLICE_OVER_VALUE
            return kind, view, param, fused, e
        # a view right after a bare E: the plugin gives the spec's values (measured)
    return None


def _through_views(body: Graph, idx: GraphIndex, res: Layer) -> tuple[list[Layer], Layer | None]:
    """The views between `res` and the layer they lead back to (the Result's input 0 upwards), and that
    layer: a view computes nothing, so the Result's memory is that layer's."""
    views: list[Layer] = []
    layer: Layer | None = res
    while layer is not None and layer.inputs:
        layer = fed_by(body, idx, layer, 0)
        if layer is None or layer.type not in VIEWS or layer in views:  # a cycle (a malformed graph) ends it
            return views, layer
        views.append(layer)
    return views, None


def _invariant_overwrites(facts: Facts, layer: Layer, body: Graph, idx: GraphIndex) -> list[Overwrite]:
    """Invariant inputs an in-place op writes over: every later iteration reads the op's result as the input
    (the invariant copy is a `first_mappers` copy, made once)."""
    info = facts.shapes.loop(layer)
    runs = None if info is None else info.iterations if info.iterations is not None else info.max_iterations
    if runs is not None and runs < 2:
        return []  # a value written over x is read again only from the second iteration on
    targets = {be.to_layer for be in layer.back_edges}
    entries = loop_plan(layer).of(EntryKind.INVARIANT_INPUT)
    invariant = {pe.body_layer for pe in entries}
    out: list[Overwrite] = []
    done: set[int | None] = set()
    keep: dict[int | None, int | None] | None = None
    for pe in entries:
        p = body.layer(pe.body_layer)
        if p is None or p.id in targets or not p.outputs or shape(facts, p) != ():
            continue
        keep = canonical(body, idx) if keep is None else keep
        for first in idx.users(p):
            found = inplace.scalar_in_place(facts, body, idx, p, first, targets, invariant, keep)
            if found is not None:
                op, via, before, then = found
                out.append(Overwrite(Kind.INVARIANT_WRITTEN, p, op, tuple(via), before=tuple(before), scalar=True,
                                     then=tuple(then)))
                done.add(p.id)
                break
    order: dict[int | None, int] | None = None
    for pe in entries:
        p = body.layer(pe.body_layer)
        if p is None or p.id in targets or p.id in done or not p.outputs:
            continue
        order = plugin_order(body, idx) if order is None else order
        found2 = inplace.view_written_in_place(facts, body, idx, p, order)
        if found2 is not None:
            op, chain, readers = found2
            out.append(Overwrite(Kind.INVARIANT_WRITTEN, p, op, tuple(chain), before=tuple(readers)))
    return out
