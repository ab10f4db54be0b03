"""What the viewers say about layers and port-map entries, in words (node labels, slicing, port roles)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from irlint.viewer.diagram.context import NAME_LIMIT, Ctx, finding_tags
from irlint.viewer.diagram.names import short_names
from irlint.viewer.diagram.porttypes import PortTypes
from irlint.viewer.diagram.porttypes import label as type_label

from irlint.controlflow import EntryKind, PlanEntry
from irlint.controlflow.readings import DEFAULT_END, DEFAULT_START, DEFAULT_STRIDE, part_length
from irlint.ir.model import Graph, Layer, Model, PortMapEntry


def slicing_label(e: PortMapEntry, spec=None) -> str:  # type: ignore[no-untyped-def]
    """The slicing in words. With a resolved spec: the elements of the first and last iteration
    (half-open, so no reading of `end` is needed); without: OpenVINO's reading of the attributes,
    where a negative start/end counts from the end and `end` is inclusive (end=-1: through the last)."""
    if not e.sliced:
        return ""
    part = part_length(e.part_size)
    if spec is not None and spec.iterations:
        first, last = spec.bounds(0), spec.bounds(spec.iterations - 1)

        def span(b: tuple[int, int]) -> str:
            return str(b[0]) if b[1] - b[0] == 1 else f"{b[0]}..{b[1] - 1}"

        order = "reversed, " if spec.reverse else ""
        return f"axis {e.axis}: {order}{spec.iterations} slices, it 0 <- {span(first)} ... it " \
               f"{spec.iterations - 1} <- {span(last)}"
    start = DEFAULT_START if e.start is None else e.start
    end = DEFAULT_END if e.end is None else e.end
    stride = DEFAULT_STRIDE if e.stride is None else e.stride

    def where(v: int, inclusive: bool) -> str:
        if v >= 0:
            return str(v)
        if v == -1:
            return "the last" if inclusive else "last"
        return f"last{v + 1}"

    text = f"axis {e.axis}: from {where(start, False)} through {where(end, True)}, stride {stride}"
    return text + (f", {part} per iteration" if part != 1 else "")


def const_value(model: Model, layer: Layer) -> str:
    """`= v` for a scalar (one-element) Const: trip counts, conditions, small constants."""
    if layer.type != "Const" or not layer.outputs or layer.outputs[0].shape is None:
        return ""
    port = layer.outputs[0]
    dims = [d.value for d in port.shape]
    if any(d is None for d in dims) or int(np.prod(dims, dtype=np.int64)) != 1 or port.precision is None:
        return ""
    try:
        v = model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), port.precision, tuple(dims))
        x = np.asarray(v).reshape(-1)[0]
    except Exception:  # missing/short .bin, unparsable attributes: the lint rules report those
        return ""
    return f"= {x:.6g}" if np.asarray(v).dtype.kind == "f" else f"= {x.item()}"


def shown_name(ctx: Ctx, layer: Layer, short: dict[str, str]) -> str:
    """A layer's name as its node shows it: inside a scope's cluster, which is labelled with the scope,
    the part below that scope (`…/x_t` in `lstm/TensorIterator/`), else the name shortened (`names`)."""
    scope = ctx.cluster_scope.get(layer.path)
    if scope and layer.name.startswith(scope + "/"):
        rel = layer.name[len(scope) + 1:]
        if rel and len(rel) + 2 < len(short.get(layer.name, layer.name)):
            return "…/" + (rel if len(rel) <= NAME_LIMIT else short_names([rel], NAME_LIMIT)[rel])
    return short.get(layer.name, layer.name)


def node_label(ctx: Ctx, layer: Layer, extra: str = "") -> str:
    outs = layer.outputs[:2]
    types = ", ".join(edge_type(ctx, layer, p.id) for p in outs)
    # a Const's name says less than its value and sits beside many others in one rank: the edge length
    short = ctx.short_edge if layer.type == "Const" else ctx.short
    lines = [layer.type, shown_name(ctx, layer, short), f"#{layer.id}" + (f"  {types}" if types else "")]
    value = const_value(ctx.model, layer)
    if value:
        lines.append(value)
    if layer.body is not None:
        lines.append(iterations_text(ctx, layer))
    if extra:
        lines.append(extra)
    tags = finding_tags(ctx, ctx.by_layer.get(layer.path, []))
    if tags:
        lines.append(tags)
    return "\n".join(x for x in lines if x)


def iterations_text(ctx: Ctx, layer: Layer) -> str:
    info = ctx.loops.get(layer.path)
    n = getattr(info, "iterations", None)
    if n is not None:
        return f"{n} iteration{'s' if n != 1 else ''}"
    bound = getattr(info, "max_iterations", None)
    return f"at most {bound} iterations" if bound is not None else "iterations: known at run time"


def folded_into(ctx: Ctx, feeds: Mapping[int | None, Layer], port: int | None) -> str:
    """` = 0 from NAME` for the folded Const feeding outer input `port` (`feeds`: the loop's inputs)."""
    src = feeds.get(port)
    return f" {ctx.folded[src.path]}" if src is not None and src.path in ctx.folded else ""


def loop_inputs(ctx: Ctx, loop: Layer) -> dict[int | None, Layer]:
    """The outer layer feeding each input port of `loop`."""
    graph = next((g for g, la in ctx.model.layers() if la is loop), None)
    if graph is None:
        return {}
    out: dict[int | None, Layer] = {}
    for e in graph.edges:
        src = graph.layer(e.from_layer) if e.to_layer == loop.id else None
        if src is not None:
            out.setdefault(e.to_port, src)
    return out


def result_type(ctx: Ctx, body: Graph, result: Layer) -> str:
    edge = next((e for e in body.edges if e.to_layer == result.id), None)
    src = body.layer(edge.from_layer) if edge is not None else None
    return edge_type(ctx, src, edge.from_port) if src is not None and edge is not None else ""


def special_value(ctx: Ctx, loop: Layer, port: int) -> str:
    graph = next((g for g, la in ctx.model.layers() if la is loop), None)
    if graph is None:
        return ""
    edge = next((e for e in graph.edges if e.to_layer == loop.id and e.to_port == port), None)
    src = graph.layer(edge.from_layer) if edge is not None else None
    if src is not None and src.path in ctx.folded:
        return "\n" + ctx.folded[src.path]
    value = const_value(ctx.model, src) if src is not None else ""
    return f"\n{value}" if value else ""


def edge_type(ctx: Ctx, layer: Layer, port: int | None) -> str:
    """Element type and shape of an output port (`viewer.diagram.porttypes`: shape inference's type where the
    IR leaves `precision` off)."""
    p = next((p for p in layer.outputs if p.id == port), None)
    if p is None:
        return ""
    if ctx.port_types is None:
        ctx.port_types = PortTypes(ctx.model, ctx.inferred)
    return ctx.port_types.output_label(layer, p)


def entry_text(ctx: Ctx, loop: Layer, pe: PlanEntry) -> str:
    """What a port_map entry does, in words: the slicing, "initial value (iteration 0 only)" (a merged
    input's outer value feeds iteration 0 only; later ones arrive over the back edge, which shows
    them), "invariant", "concat axis N" (every iteration's part) or "last value" (the last iteration's)."""
    if pe.kind is EntryKind.SLICED_INPUT:
        info = ctx.loops.get(loop.path)
        spec = next((s.spec for s in getattr(info, "slicing", []) if s.entry is pe.entry), None)
        return slicing_label(pe.entry, spec)
    if pe.kind is EntryKind.MERGED_INPUT:
        return "initial value (iteration 0 only)"
    if pe.kind is EntryKind.INVARIANT_INPUT:
        return "invariant"
    if pe.kind is EntryKind.CONCAT_OUTPUT:
        return f"concat axis {pe.entry.axis}" + (" (reversed)" if pe.reversed else "")
    if pe.kind is EntryKind.LAST_VALUE_OUTPUT:
        return "last value"
    return ""


PREVIEW = 16  # elements of a Const or a traced tensor written into a side panel
CONST_READ_LIMIT = 1 << 24  # Consts with more elements are described, not read


def preview(value: np.ndarray) -> str:
    """dtype[shape] and the first elements, plus min/max of a larger numeric tensor."""
    v = np.asarray(value)
    head = f"{v.dtype}{list(v.shape)}"
    flat = v.reshape(-1)
    shown = v if v.ndim == 0 else flat[:PREVIEW]  # a scalar (shape []) as `1`, not `[1]`
    text = np.array2string(shown, precision=4, max_line_width=10_000, threshold=PREVIEW + 1)
    if flat.size > PREVIEW:
        text = text[:-1] + " ...]"
    if flat.size > 1 and v.dtype.kind in "fiub":
        f = flat.astype(np.float64)
        text += f"  min {np.nanmin(f):.4g} max {np.nanmax(f):.4g}"
    return f"{head} {text}"


def const_preview(model: Model, layer: Layer) -> str:
    """A Const's value as `preview` shows it, read from the weights (described when too large)."""
    if layer.type != "Const" or not layer.outputs or layer.outputs[0].shape is None:
        return ""
    port = layer.outputs[0]
    dims = [d.value for d in port.shape]
    if any(d is None for d in dims) or port.precision is None:
        return ""
    if int(np.prod(dims, dtype=np.int64)) > CONST_READ_LIMIT:
        return f"{type_label(port.precision, port)} (too large to preview)"
    try:
        v = model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), port.precision, tuple(dims))
    except Exception as e:  # a missing/short .bin or bad attributes: the lint rules report those
        return f"unreadable: {e}"
    return preview(v)
