"""Which body op the CPU plugin lets write its result over which body Parameter's memory.

The mechanism (src/plugins/intel_cpu/src): a Reshape, Squeeze or Unsqueeze is a Reshape node whose output
is its input's memory (nodes/reshape.cpp). An Eltwise node writes its result over its input 0's memory
when Eltwise::canBeInPlace() (nodes/eltwise.cpp) holds: the node feeding input 0 is no Input node (a
Parameter or a Const), every node feeding it has no other child edge, and input 0 has the output's shape.
One-input Eltwise ops after it are fused into its node (graph_optimizer.cpp, FuseEltwiseAndSimple), so
the fused node's result lands in the same memory; a binary op whose other operand an Eltwise node computes
is fused into that node instead, whose input 0 is then not the view. Where a Parameter's memory has other
readers, Graph::ResolveComplexInplaceConflicts (graph.cpp) copies it first for a reader that runs after the
writer or is a Result. The conditions below follow these functions; those marked "measured" were found on
the plugin (OpenVINO 2026.4) where the source reading alone does not decide.
"""

from __future__ import annotations

import math

from irlint.ir.index import GraphIndex
from irlint.ir.model import BackEdge, Edge, Graph, Layer
from irlint.openvino.facts import Facts, etype, fed_by, folded, plugin_order, same_shape, shape
from irlint.openvino.nodes import ELTWISE, IN_PLACE_BINARY, PLUGIN_TYPE, UNARY_ELTWISE, VIEWS
from irlint.types import shape_values

# Binary ops measured to be fused, in u8/i8, with an Add/Multiply after them into one node that then writes
# over their input 0 (in f32 and i32 the same pair gives the spec's values).
FUSED_FIRST_OPS = frozenset({"Minimum", "Maximum", "Add", "Multiply"})
ONE_BYTE = frozenset({"u8", "i8"})
# Between the in-place op and a back edge's Result: one-input Eltwise ops, fused into its node or run in
# place after it (Eltwise::canBeInPlace holds for them), and views: the value stays in the same memory.
TAIL_OPS = UNARY_ELTWISE
# Binary ops that write over a view of an invariant input (the view on input 0; measured).
VIEW_IN_PLACE = frozenset({"Add", "Multiply", "Subtract", "Maximum", "Minimum"})
# Reduces into whose node the plugin fuses one-input Eltwise ops after them (graph_optimizer.cpp,
# FuseReduceAndSimpleOperation).
FUSING_REDUCES = frozenset({"ReduceSum", "ReduceMax"})


def _plugin_no_op_convert(ctx: Facts, layer: Layer, source: Layer, port: int | None) -> bool:
    """`layer` is a Convert of `source`'s output `port` between two types the CPU plugin computes alike."""
    if layer.type != "Convert":
        return False
    dst = etype(ctx, layer)
    info = ctx.shapes.output(source, port)
    src = info.etype.name if info.etype is not None and not info.etype.is_dynamic else None
    return src is not None and dst is not None and PLUGIN_TYPE.get(src, src) == PLUGIN_TYPE.get(dst, dst)


def chain_to(body: Graph, idx: GraphIndex, last: Layer | None) -> list[Layer]:
    """The layers from the one a back edge's Result reads backwards, over views and ops the plugin fuses into
    the node before them, each read only by the one after it, up to the first that is neither: each is a
    candidate E, the layers before it in the list its tail. The one the Result reads may have other readers
    (the ONNX front end's Scan reads it for the back edge and the scan output): fusing and in-place writing
    look at a node's inputs (Eltwise::canBeInPlace, FuseEltwiseAndSimple), not at its output's readers."""
    chain: list[Layer] = []
    seen: set[int] = set()
    while last is not None and last.outputs and id(last) not in seen:  # a cycle (a malformed graph) ends it
        seen.add(id(last))
        chain.append(last)
        if (len(chain) > 1 and len(idx.users(last)) != 1) or not _joins_node_before(body, idx, last):
            break
        last = fed_by(body, idx, last, 0)
    return chain


def _joins_node_before(body: Graph, idx: GraphIndex, layer: Layer) -> bool:
    """`layer` is a view or an op the plugin fuses into the node that computes its input 0."""
    if not layer.inputs:
        return False
    if layer.type in VIEWS:
        return True
    if layer.type in TAIL_OPS:  # extra inputs that are Consts are attributes of the node (Swish's beta)
        return len(layer.inputs) == 1 or all(
            k is not None and k.type in ("Const", "Constant")
            for k in (fed_by(body, idx, layer, i) for i in range(1, len(layer.inputs)))
        )
    k = fed_by(body, idx, layer, 1) if layer.type in IN_PLACE_BINARY and len(layer.inputs) == 2 else None
    return k is not None and k.type == "Const"


def changed_states(body: Graph, idx: GraphIndex, layer: Layer, before: BackEdge) -> set[int | None]:
    """The back edges' Parameters whose Result does not read the Parameter itself (the plugin copies a new value
    into their memory after each iteration) and whose Parameter and Result both come before those of the back
    edge `before` in the body (measured: in any other order the plugin passes `before`'s value on first)."""
    pos: dict[int | None, int] | None = None
    out: set[int | None] = set()
    for be in layer.back_edges:
        if be is before:
            continue
        res = body.layer(be.from_layer)
        src = fed_by(body, idx, res, 0) if res is not None and res.type == "Result" else None
        if src is None or src.id == be.to_layer:
            continue
        if pos is None:  # the body's order, built only when another back edge asks
            pos = {lay.id: i for i, lay in enumerate(body.layers)}
        if pos.get(be.to_layer, -1) < pos.get(before.to_layer, -1) and pos.get(be.from_layer, -1) < pos.get(
            before.from_layer, -1
        ):
            out.add(be.to_layer)
    return out


def _takes_place(
    ctx: Facts, body: Graph, idx: GraphIndex, other: Layer | None, param: Layer, states: set[int | None]
) -> bool:
    """Whether E's other operand leaves E in place over the view: not an Eltwise node (which takes E into its
    own node). Over a state's memory also not a view, nor a Parameter reached through Converts to their input's
    own type (which the plugin removes): measured, both give the spec's values. A Parameter E reads directly
    (read by E alone, as `_in_place_view` requires) leaves E in place."""
    if other is None:
        return True
    if other.type in ELTWISE:
        return False
    if param.id not in states or other.type == "Parameter":
        return True  # a Parameter read only by E (measured in u8: E's Parameter s receives a's next value)
    while (
        other is not None
        and other.type == "Convert"
        and etype(ctx, other) is not None
        and etype(ctx, other) == etype(ctx, fed_by(body, idx, other, 0))
    ):
        other = fed_by(body, idx, other, 0)
    return other is not None and other.type != "Parameter" and other.type not in VIEWS


def in_place_view(
    ctx: Facts, body: Graph, idx: GraphIndex, e: Layer, params: set[int | None], states: set[int | None]
) -> tuple[Layer, Layer, Layer | None] | None:
    """(the view, its Parameter, the fused first op or None) where E (alone, or fused with that op) writes
    over the memory of a body Parameter of `params`; None otherwise."""
    first, other = fed_by(body, idx, e, 0), fed_by(body, idx, e, 1)
    if not may_write_over(first, other):
        return None
    if any(len(idx.users(src)) != 1 for src in (first, other) if src is not None):
        return None
    view = _view_of(ctx, body, idx, first, params)
    if view is not None:
        kept = (
            same_shape(ctx, first, e)
            and _takes_place(ctx, body, idx, other, view[1], states)
            and _peers_run_before(body, idx, view, e)
        )
        return (*view, None) if kept else None
    weighted = _weighted_view(ctx, body, idx, e, params, states)
    if weighted is not None:
        return weighted
    et = ctx.shapes.output(e, e.outputs[0].id).etype if e.outputs else None
    if et is None or et.name not in ONE_BYTE:
        return None
    for i in (0, 1):
        f = fed_by(body, idx, e, i)
        if f is None or f.type not in FUSED_FIRST_OPS or not f.inputs:
            continue
        srcs = [fed_by(body, idx, f, j) for j in range(len(f.inputs))]
        if any(s is None or len(idx.users(s)) != 1 for s in srcs):
            continue
        rest = fed_by(body, idx, e, 1 - i)
        view = _view_of(ctx, body, idx, srcs[0], params)
        if view is not None and same_shape(ctx, srcs[0], e) and _takes_place(ctx, body, idx, rest, view[1], states):
            return (*view, f)
    return None


def may_write_over(first: Layer | None, other: Layer | None) -> bool:
    """What every case of `in_place_view` needs of E's operands (`first` on input 0, `other` on input 1):
    a view on input 0 (`_view_of`), or an operand that is a binary op (`_weighted_view`'s F, the fused
    first op). A cheap test that spares the walks for the many Adds of a body that read no view."""
    if first is not None and first.type in VIEWS:
        return True
    return any(f is not None and (f.type in IN_PLACE_BINARY or f.type in FUSED_FIRST_OPS) for f in (first, other))


def _weighted_view(
    ctx: Facts, body: Graph, idx: GraphIndex, e: Layer, params: set[int | None], states: set[int | None]
) -> tuple[Layer, Layer, Layer] | None:
    """(the view, its Parameter, F) where E, on either input, reads F = Add/Multiply(view, W) of a Const W of
    more than one element, F read only by E: F heads an Eltwise node in place over the view (its input 0 is
    a Reshape node, W has one reader), and E, whose operand F is, is fused into it (graph_optimizer.cpp,
    FuseEltwiseAndSimple fuses a child Eltwise into the parent Eltwise before it; Add and Multiply are
    commutative, so either port). A W of one element becomes a PowerStatic node (ConvertToPowerStatic),
    measured to give the spec's values."""
    for i in (0, 1):
        f = fed_by(body, idx, e, i)
        if f is None or f.type not in IN_PLACE_BINARY or len(f.inputs) != 2 or len(idx.users(f)) != 1:
            continue
        w = fed_by(body, idx, f, 1)
        w_shape = shape(ctx, w)
        if w is None or w.type not in ("Const", "Constant") or len(idx.users(w)) != 1 or w_shape is None:
            continue
        vals = shape_values(w_shape)
        if vals is None or math.prod(vals) <= 1:
            continue
        v = fed_by(body, idx, f, 0)
        view = _view_of(ctx, body, idx, v, params)
        rest = fed_by(body, idx, e, 1 - i)
        if (
            view is not None
            and same_shape(ctx, v, e)
            and same_shape(ctx, f, e)
            and _takes_place(ctx, body, idx, rest, view[1], states)
            and _peers_run_before(body, idx, view, e)
        ):
            return (*view, f)
    return None


def _peers_run_before(body: Graph, idx: GraphIndex, view: tuple[Layer, Layer], e: Layer) -> bool:
    """Whether the Parameter's readers besides the view leave its memory to E: Graph::ResolveComplexInplaceConflicts
    (graph.cpp) inserts a copy for the in-place edge when a peer consumer of the same output port runs at or after
    the node that modifies it (its execution index), or is an Output (a Result)."""
    v, p = view
    others = [lay for u in idx.users(p) if (lay := body.layer(u.to_layer)) is not None and lay is not v]
    if not others:
        return True
    order = plugin_order(body, idx)
    at = order.get(e.id, -1)
    return all(r.type != "Result" and order.get(r.id, len(order)) < at for r in others)


def _view_of(
    ctx: Facts, body: Graph, idx: GraphIndex, v: Layer | None, params: set[int | None]
) -> tuple[Layer, Layer] | None:
    """(v, its Parameter) when v is a Reshape/Squeeze/Unsqueeze that changes the shape of a body Parameter of
    `params` and is read by one op."""
    if v is None or v.type not in VIEWS or len(idx.users(v)) != 1:
        return None
    p = fed_by(body, idx, v, 0)
    if p is None or p.type != "Parameter" or p.id not in params or not p.outputs or not v.outputs:
        return None
    before = ctx.shapes.output(p, p.outputs[0].id).shape
    after = ctx.shapes.output(v, v.outputs[0].id).shape
    if before is None or after is None or before == after:
        return None
    return v, p


def view_written_in_place(
    ctx: Facts, body: Graph, idx: GraphIndex, p: Layer, order: dict[int | None, int]
) -> tuple[Layer, list[Layer], list[Layer]] | None:
    """(the op, the views, the other readers) when invariant input `p` reaches input 0 of an Add, Multiply or
    Subtract through Reshapes/Squeezes/Unsqueezes that change its shape, and the CPU plugin lets that op write
    its result over the views' memory, which is p's; None otherwise."""
    found = _view_chain(body, idx, p, [], [])
    if found is None:
        return None
    op, chain, others = found
    cur = chain[-1]
    if len(op.inputs) != 2 or not op.outputs:
        return None
    e = idx.source(op.id, op.inputs[1].id)
    other = body.layer(e.from_layer) if e is not None else None
    if (
        other is None
        or folded(body, idx, other)
        or (other.type in ELTWISE and not _fused_into_reduce(body, idx, other))
    ):
        return None  # the plugin fuses the op into an Eltwise node computing its other operand
    if len(idx.users(other)) != 1:
        return None  # the plugin writes in place only over an op whose inputs have no other reader
    first = ctx.shapes.output(p, p.outputs[0].id).shape
    last = ctx.shapes.output(cur, cur.outputs[0].id).shape
    out = ctx.shapes.output(op, op.outputs[0].id).shape
    if first is None or last is None or last == first or out != last:
        return None  # views that keep the shape are removed; an op that broadcasts x writes elsewhere
    if shape_values(first) == (1,) and _back_to(ctx, body, idx, op, first):
        return None  # [1] -> [] -> op -> [1]: the plugin computes the op on x's [1] directly, not in place
    readers = _consumers(ctx, body, idx, others)
    if readers is None or any(order.get(r.id, -1) >= order.get(op.id, -1) for r in readers):
        return None  # a later reader (or a Result) makes the plugin copy x first
    return op, chain, readers


def _back_to(ctx: Facts, body: Graph, idx: GraphIndex, op: Layer, shape: tuple) -> bool:
    """Whether `op` is read only by a view that gives it `shape` again."""
    users = idx.users(op)
    lay = body.layer(users[0].to_layer) if len(users) == 1 else None
    return (
        lay is not None
        and lay.type in VIEWS
        and bool(lay.outputs)
        and ctx.shapes.output(lay, lay.outputs[0].id).shape == shape
    )


def _fused_into_reduce(body: Graph, idx: GraphIndex, layer: Layer) -> bool:
    """Whether `layer` is a chain of one-input eltwise ops over a ReduceSum/ReduceMax, each read only by the
    next: the plugin fuses the chain into the reduce node, so no Eltwise node takes the op in."""
    seen = {layer.id}
    while layer.type in ELTWISE and len(layer.inputs) == 1 and len(idx.users(layer)) == 1:
        e = idx.source(layer.id, layer.inputs[0].id)
        nxt = body.layer(e.from_layer) if e is not None else None
        if nxt is None or nxt.id in seen:  # a cycle (a malformed graph) reaches no reduce
            return False
        layer = nxt
        seen.add(nxt.id)
    return layer.type in FUSING_REDUCES and len(idx.users(layer)) == 1


def _view_of_input(
    ctx: Facts,
    body: Graph,
    idx: GraphIndex,
    layer: Layer,
    targets: set[int | None],
    invariant: set[int | None],
    keep: dict[int | None, int | None] | None = None,
) -> bool:
    """Whether `layer` is a chain of Reshapes/Squeezes/Unsqueezes, each of them read by one layer, over a body
    Parameter that no back edge feeds (a slice or an invariant input) or over a value computed by a node that
    is no Eltwise node (a ReduceSum, a Gather, a Convert, a nested Loop's output...) and read only by the
    chain: the operand with which the plugin adds a scalar in place (measured; an Eltwise node such as a Tanh
    there takes the Add into its own node instead). An invariant input may have other readers where
    `_invariant_readers_keep_in_place` says so; one read by views OpenVINO merges (`keep`) is read once."""
    seen = 0
    visited = {layer.id}
    view = layer
    if keep and (_merged_readers(body, idx, layer, keep) or 0) > 1:
        return False  # its duplicates' readers are its readers once OpenVINO merges them
    while layer.type in VIEWS and layer.inputs:
        if len(idx.users(layer)) != 1 and (seen or not _readers_keep_in_place(body, idx, layer)):
            return False
        e = idx.source(layer.id, layer.inputs[0].id)
        nxt = body.layer(e.from_layer) if e is not None else None
        if nxt is None or nxt.id in visited:  # a cycle (a malformed graph) reaches no Parameter
            return False
        view, layer, seen = layer, nxt, seen + 1
        visited.add(nxt.id)
    if seen == 0:
        return False
    if layer.type == "Parameter" and keep and len({keep.get(u.to_layer, u.to_layer) for u in idx.users(layer)}) == 1:
        return layer.id not in targets  # read twice only by views OpenVINO merges into one
    if layer.type == "Parameter" and len(idx.users(layer)) != 1:
        return (
            layer.id in invariant
            and len(idx.users(view)) == 1
            and _invariant_readers_keep_in_place(ctx, body, idx, layer, view)
        )
    if len(idx.users(layer)) != 1:
        return False
    if layer.type == "Parameter":
        return layer.id not in targets
    return layer.type not in ELTWISE and layer.type not in ("Const", "Result")


def _merged_readers(body: Graph, idx: GraphIndex, layer: Layer, keep: dict[int | None, int | None]) -> int | None:
    """How many distinct layers read `layer` once OpenVINO has merged it with its duplicates; None when it
    has no duplicate."""
    own = keep.get(layer.id, layer.id)
    dups = [la for la in body.layers if keep.get(la.id, la.id) == own]
    if len(dups) < 2:
        return None
    return len({keep.get(u.to_layer, u.to_layer) for d in dups for u in idx.users(d)})


def _invariant_readers_keep_in_place(ctx: Facts, body: Graph, idx: GraphIndex, p: Layer, view: Layer) -> bool:
    """Whether the readers of invariant input `p` besides `view` (the view the op reads) leave the op in place
    (measured): Results always; for a `p` whose shape is not static any op but another view (a Concat, Relu,
    ReduceSum, Add or nested TensorIterator reading `p` [?] leaves x + Reshape(p, []) accumulating, where with
    `p` of shape [1] they give the spec's values; a second Reshape of `p` there gives them whatever its shape)."""
    shape = ctx.shapes.output(p, p.outputs[0].id).shape if p.outputs else None
    dynamic = shape is None or not all(d.is_static for d in shape)
    for u in idx.users(p):
        r = body.layer(u.to_layer)
        if r is view:
            continue
        if r is None or r.type in VIEWS or (r.type != "Result" and not dynamic):
            return False
    return True


# Ops measured to leave the plugin's in-place Add of a scalar invariant input as it is when they also read the
# Add's other operand (a view of a slice): one-input activations and Converts, and a Subtract on its input 1.
# An Add, Multiply, Maximum, Negative, Subtract on input 0, a view or a Result there stops it (measured).
KEEP_IN_PLACE_READERS = frozenset({"Relu", "ReLU", "Sigmoid", "Tanh", "Exp", "Abs", "Clamp", "Floor", "Convert"})


def _readers_keep_in_place(body: Graph, idx: GraphIndex, view: Layer) -> bool:
    """Whether each reader of `view` besides the op that adds it to x leaves that op in place (measured): the
    op itself (an Add or Multiply reading it on input 1), one-input activations and Converts, Subtracts
    reading it on input 1 only."""
    ops = 0
    for u in idx.users(view):
        lay = body.layer(u.to_layer)
        if lay is None:
            return False
        ports = {e.to_port for e in idx.users(view) if e.to_layer == lay.id}
        if lay.type in IN_PLACE_BINARY and ports == {1}:
            ops += 1
        elif not (
            (lay.type in KEEP_IN_PLACE_READERS and len(lay.inputs) == 1) or (lay.type == "Subtract" and ports == {1})
        ):
            return False
    return ops == 1



def _consumers(ctx: Facts, body: Graph, idx: GraphIndex, others: list[tuple[Layer, Layer]]) -> list[Layer] | None:
    """The layers that read the invariant input's memory besides the op: each other reader (layer, the view
    of the chain beside it), seen through the views it feeds; None when one is a Result or a Concat, or a view
    of the same shape as the chain's (the plugin merges the two views, so the op's input has two readers)."""
    out: list[Layer] = []
    todo = list(others)
    seen: set[int | None] = set()
    while todo:
        r, twin = todo.pop()
        if r.id in seen:
            continue  # a cycle (a malformed graph), or a layer reached twice
        seen.add(r.id)
        if r.type == "ShapeOf":
            continue  # reads the shape only
        if r.type in ("Result", "Concat"):
            return None
        if r.type in VIEWS and r.outputs:
            if (
                twin is not None
                and twin.outputs
                and ctx.shapes.output(r, r.outputs[0].id).shape == ctx.shapes.output(twin, twin.outputs[0].id).shape
            ):
                return None
            todo += [(lay, None) for u in idx.users(r) if (lay := body.layer(u.to_layer)) is not None]
            continue
        out.append(r)
    return out


def _view_chain(
    body: Graph, idx: GraphIndex, cur: Layer, chain: list[Layer], others: list[tuple[Layer, Layer]]
) -> tuple[Layer, list[Layer], list[tuple[Layer, Layer]]] | None:
    """(op, views, other readers with the view beside each) when `cur`, through a chain of views (at least
    one), is read on input 0 of an op of VIEW_IN_PLACE that alone reads the last view; None otherwise."""
    users = idx.users(cur)
    readers = [lay for u in users if (lay := body.layer(u.to_layer)) is not None]
    if chain and len(users) == 1 and users[0].to_port == 0 and readers and readers[0].type in VIEW_IN_PLACE:
        return readers[0], chain, others
    for u, lay in zip(users, readers):
        if u.to_port != 0 or lay.type not in VIEWS or not lay.outputs or lay in chain:  # in chain: a cycle
            continue
        rest = [(r, lay) for r in readers if r is not lay]
        found = _view_chain(body, idx, lay, [*chain, lay], [*others, *rest])
        if found is not None:
            return found
    return None


def scalar_in_place(
    ctx: Facts,
    body: Graph,
    idx: GraphIndex,
    p: Layer,
    first: Edge,
    targets: set[int | None],
    invariant: set[int | None],
    keep: dict[int | None, int | None] | None = None,
) -> tuple[Layer, list[Layer], list[Layer], list[Layer]] | None:
    """(the Add/Multiply, the removed Converts and views on the way, p's other readers, the binary ops fused
    after the op into its node) when the edge `first`
    from the scalar invariant Parameter `p` leads, on input 0 and through views and no-op Converts each read
    once, to an Add/Multiply of a view of a slice or invariant input that the CPU plugin computes in p's
    memory; None otherwise. `keep` maps each layer to the one OpenVINO merges it into (`shared.canonical`):
    a duplicate of the op is no other reader of p, a duplicate of the slice's view no other reader of it."""
    keep = keep or {}
    edge = first
    via: list[Layer] = []  # Converts the plugin removes and views between p and the op
    src, port = p, p.outputs[0].id
    while edge.to_port == 0:
        nxt = body.layer(edge.to_layer)
        if nxt is None or nxt in via or nxt is p:
            return None  # a cycle (a malformed graph)
        if not nxt.outputs or not (nxt.type in VIEWS or _plugin_no_op_convert(ctx, nxt, src, port)):
            break
        users = idx.users(nxt)
        if len(users) != 1:
            return None
        via.append(nxt)
        src, port = nxt, nxt.outputs[0].id
        edge = users[0]
    op = body.layer(edge.to_layer)
    if edge.to_port != 0 or op is None or op.type not in IN_PLACE_BINARY or len(op.inputs) != 2:
        return None
    e = idx.source(op.id, op.inputs[1].id)
    other = body.layer(e.from_layer) if e is not None else None
    end = ctx.shapes.output(src, port).shape  # x as the op reads it
    if other is None or e is None or end not in ((), (1,)) or ctx.shapes.output(other, e.from_port).shape != end:
        return None
    if folded(body, idx, other) or not _view_of_input(ctx, body, idx, other, targets, invariant, keep):
        return None
    then = _fused_view_readers(ctx, body, idx, op, end, targets, invariant)
    last = then[-1] if then else op
    if any(
        t is None or t.type in ELTWISE or t.type == "Convert" for t in (body.layer(u.to_layer) for u in idx.users(last))
    ):
        return None  # the plugin fuses that reader into the op's node, which then writes elsewhere (measured)
    if any(t is not None and t.type == "Result" for t in (body.layer(u.to_layer) for u in idx.users(last))):
        return None  # a Result reading the op keeps it out of x's memory (measured)
    merged_into_op = keep.get(op.id, op.id)
    readers = _past_removed_reshapes(
        ctx, body, idx, p, [body.layer(u.to_layer) for u in idx.users(p)
                            if u is not first and keep.get(u.to_layer, u.to_layer) != merged_into_op]
    )
    before = [r for r in readers if r is not None]
    if len(before) != len(readers) or not _leave_memory_free(ctx, body, idx, p, op, before):
        return None
    return op, via, before, then


def _fused_view_readers(
    ctx: Facts,
    body: Graph,
    idx: GraphIndex,
    op: Layer,
    end: tuple | None,
    targets: set[int | None],
    invariant: set[int | None],
) -> list[Layer]:
    """The binary layers the plugin fuses after `op` into its node whose every other operand is, like op's,
    a view of a slice or invariant input: the fused node then still computes in x's memory (measured: x + a_s
    read by Add, Multiply, Maximum or Minimum with b_s, or by Subtract(b_s, .), overwrites x; a Subtract or
    Divide with op first does not, OpenVINO turning it into an Add or Multiply of a Multiply(b_s, -1) or
    Power(b_s, -1) node, an operand no view). FuseEltwiseAndSimple fuses a reader into an Eltwise node read
    by it alone (graph_optimizer.cpp)."""
    seen, chain = {op.id}, []
    while True:
        users = idx.users(op)
        reader = body.layer(users[0].to_layer) if len(users) == 1 else None
        if reader is None or reader.id in seen or len(reader.inputs) != 2:
            return chain
        at = users[0].to_port
        port = next((i for i, p in enumerate(reader.inputs) if p.id == at), None)
        commutes = reader.type in FUSED_FIRST_OPS
        if port is None or not (commutes or (reader.type == "Subtract" and port == 1)):
            return chain
        e = idx.source(reader.id, reader.inputs[1 - port].id)
        other = body.layer(e.from_layer) if e is not None else None
        if other is None or e is None or ctx.shapes.output(other, e.from_port).shape != end:
            return chain
        if folded(body, idx, other) or not _view_of_input(ctx, body, idx, other, targets, invariant):
            return chain
        seen.add(reader.id)
        chain.append(reader)
        op = reader


def _past_removed_reshapes(
    ctx: Facts, body: Graph, idx: GraphIndex, p: Layer, readers: list[Layer | None]
) -> list[Layer | None]:
    """`readers` with each Reshape of `p` that keeps its shape ([] to []) replaced by the Reshape's readers:
    OpenVINO removes such a Reshape, so its readers read p itself (measured: Reshape(x, []) * 2 run before
    the Add leaves it in place)."""
    shape = ctx.shapes.output(p, p.outputs[0].id).shape
    out: list[Layer | None] = []
    todo = list(readers)
    seen: set[int | None] = set()
    while todo:
        r = todo.pop(0)
        if (
            r is not None
            and r.type == "Reshape"
            and r.outputs
            and r.id not in seen
            and ctx.shapes.output(r, r.outputs[0].id).shape == shape
        ):
            seen.add(r.id)
            todo += [body.layer(u.to_layer) for u in idx.users(r)]
            continue
        out.append(r)
    return out


def _leave_memory_free(ctx: Facts, body: Graph, idx: GraphIndex, p: Layer, op: Layer, readers: list[Layer]) -> bool:
    """Whether a scalar `p`'s other readers leave its memory to `op` (measured): each is a Result, or an op
    that is no view of p (nor a Convert the plugin removes), does not feed `op`, and runs before it in the
    plugin's order."""
    if not readers:
        return True
    order = plugin_order(body, idx)
    feeding = _feeding(body, idx, op)
    for r in readers:
        if r.type == "Result":
            continue
        if r is op or r.id in feeding or r.type in VIEWS or _plugin_no_op_convert(ctx, r, p, p.outputs[0].id):
            return False
        if order.get(r.id, len(order)) >= order.get(op.id, -1):
            return False
    return True


def _feeding(body: Graph, idx: GraphIndex, op: Layer) -> set[int | None]:
    """The ids of the layers whose values reach `op` along paths through no If: the CPU plugin's If node
    copies its inputs into its branch's memory and the branch's output into its own, so an If reading x, or a
    reader of x feeding only an If, is done with x before the op (measured)."""
    out: set[int | None] = set()
    todo = [op]
    while todo:
        layer = todo.pop()
        for port in layer.inputs:
            e = idx.source(layer.id, port.id)
            src = body.layer(e.from_layer) if e is not None else None
            if src is not None and src.type == "If":
                continue
            if src is not None and src.id not in out:
                out.add(src.id)
                todo.append(src)
    return out
