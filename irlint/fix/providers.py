"""The built-in fix providers: stale declarations replaced by what shape inference proves, and a Const
`size` that contradicts its shape.

Every provider only rewrites values OpenVINO does not read (declared port dims and precisions, a
body Parameter's declared shape) unless it says `safe=False`, and only when the value to write is
fully known (static dims, a concrete element type).
"""

from __future__ import annotations

from irlint.diagnostics import Diagnostic
from irlint.fix.edits import Edit
from irlint.fix.registry import Fix, FixContext, provides
from irlint.fix.wiring import owner_entry, part_size_fix
from irlint.fix.xmltext import Tag, format_shape_attr, set_port_dims
from irlint.ir.model import Edge, Graph, Layer, Port
from irlint.layerpath import owner_of, subgraph
from irlint.ops.base import TensorInfo
from irlint.types import Shape, element_type, parse_shape, shape_values


def _dims(shape: Shape | None) -> tuple[int, ...] | None:
    return shape_values(shape)


def _port_edits(fc: FixContext, layer: Layer, port: Port, info: TensorInfo, *, dims: bool = True,
                precision: bool = True) -> list[Edit]:
    """Edits making `port` declare `info` where it differs (dims only when fully static)."""
    at = fc.port_at(layer, port)
    if at is None:
        return []
    edits: list[Edit] = []
    et = info.etype
    if precision and et is not None and not et.is_dynamic and port.precision != et:
        edits.append(Tag(fc.data, at).set_attr("precision", et.precision))
    values = _dims(info.shape)
    if dims and values is not None and port.shape != info.shape:
        edits += set_port_dims(fc.data, at, values)
    return edits


def _fix(d: Diagnostic, edits: list[Edit], description: str, safe: bool = True) -> Fix | None:
    return Fix(d.code, d.layer, d.port, tuple(edits), description, safe) if edits else None


def _graph_of(fc: FixContext, layer: Layer) -> Graph | None:
    owner = owner_of(fc.model, layer.path)
    return fc.model.graph if owner is None else subgraph(owner, layer.path.split("/")[-2])  # body, an If branch


@provides("T211", "safe", "writes the element type and (fully static) dims that shape inference computes into "
                          "the output port; OpenVINO re-infers them anyway, so the model that runs is unchanged")
def fix_declared_output(fc: FixContext, d: Diagnostic) -> Fix | None:
    return _declare_output(fc, d, "what the op computes")


def _declare_output(fc: FixContext, d: Diagnostic, what: str, precision: bool = True) -> Fix | None:
    """Declare in the output port a finding names what shape inference computes for it (`what` says
    which), and its element type too unless `precision` is false."""
    layer = fc.layer(d.layer)
    port = layer.output(d.port) if layer is not None and d.port is not None else None
    if layer is None or port is None:
        return None
    info = fc.ctx.shapes.output(layer, port.id)
    edits = _port_edits(fc, layer, port, info, precision=precision)
    return _fix(d, edits, f"output port {port.id} of '{layer.name}': declare {what}")


def _edge_into(fc: FixContext, d: Diagnostic) -> tuple[Edge, Layer, Port, Layer, Port] | None:
    dst = fc.layer(d.layer)
    graph = _graph_of(fc, dst) if dst is not None else None
    if dst is None or graph is None or d.port is None:
        return None
    edges = fc.ctx.index(graph).edges_into(dst.id, d.port)
    if len(edges) != 1:
        return None
    e = edges[0]
    src = graph.layer(e.from_layer)
    sp = src.output(e.from_port) if src is not None and e.from_port is not None else None
    dp = dst.input(d.port)
    if src is None or sp is None or dp is None:
        return None
    return e, src, sp, dst, dp


@provides("T201", "safe or unsafe", "makes the consumer's input port declare the producer's precision when shape "
                                    "inference confirms it (safe), or when only the producer declares it (unsafe)")
def fix_edge_precision(fc: FixContext, d: Diagnostic) -> Fix | None:
    found = _edge_into(fc, d)
    if found is None:
        return None
    _e, src, sp, dst, dp = found
    inferred = fc.ctx.shapes.output(src, sp.id).etype
    if inferred is not None and not inferred.is_dynamic:
        if inferred != sp.precision:
            return None  # the producer's declaration is the stale end
        safe = True
    elif sp.precision is not None and not sp.precision.is_dynamic:
        inferred, safe = sp.precision, False
    else:
        return None
    at = fc.port_at(dst, dp)
    if at is None or dp.precision == inferred:
        return None
    edit = Tag(fc.data, at).set_attr("precision", inferred.precision)
    return _fix(d, [edit], f"input port {dp.id} of '{dst.name}': declare {inferred.precision} like its producer",
                safe)


@provides("T202", "safe or unsafe", "makes the consumer's input port declare the producer's dims when shape "
                                    "inference proves them fully static (safe), or copies the producer's declared "
                                    "static dims when inference knows less (unsafe)")
def fix_edge_shape(fc: FixContext, d: Diagnostic) -> Fix | None:
    found = _edge_into(fc, d)
    if found is None:
        return None
    _e, src, sp, dst, dp = found
    inferred = fc.ctx.shapes.output(src, sp.id).shape
    values = _dims(inferred)
    if values is not None:
        if sp.shape != inferred:
            return None  # the producer's declaration is the stale end
        safe = True
    else:
        values, safe = _dims(sp.shape), False
        if values is None:
            return None
    at = fc.port_at(dst, dp)
    if at is None:
        return None
    edits = set_port_dims(fc.data, at, values)
    return _fix(d, edits, f"input port {dp.id} of '{dst.name}': declare [{','.join(map(str, values))}] like its "
                          "producer", safe)


@provides("SL606", "safe", "writes the dims the body produces (concatenated over the iterations, or its last "
                           "value) into the TensorIterator/Loop output port when they are fully static")
def fix_loop_output(fc: FixContext, d: Diagnostic) -> Fix | None:
    return _declare_output(fc, d, "what the body produces", precision=False)


@provides("SL605", "safe or unsafe", "declares on the body Parameter (its `shape`/`element_type` and its port) "
                                     "what its port_map entry delivers, when that is fully static (safe); with "
                                     "--unsafe-fixes, when only the sliced axis differs and the Parameter's dim "
                                     "slices the input, sets the entry's `part_size` to it instead")
def fix_sliced_parameter(fc: FixContext, d: Diagnostic) -> Fix | None:
    param = fc.layer(d.layer)
    owner = owner_of(fc.model, d.layer or "")
    info = fc.ctx.shapes.loop(owner) if owner is not None else None
    if param is None or owner is None or info is None or param.id not in info.params or not param.outputs:
        return None
    found = owner_entry(fc, param)
    if found is None or any(s.entry is found[1] and s.error for s in info.slicing):
        return None  # an invalid slicing delivers nothing to declare (SL601/SL603)
    if fc.unsafe:
        guess = part_size_fix(fc, d, owner, found[1])
        if guess is not None:
            return guess
    got = info.params[param.id]
    data_at = fc.data_at(param)
    if data_at is None:
        return None
    tag = Tag(fc.data, data_at)
    edits: list[Edit] = []
    et = got.etype
    declared_et = element_type(param.data.get("element_type", "")) if "element_type" in param.data else None
    if et is not None and not et.is_dynamic and declared_et is not None and declared_et != et:
        edits.append(tag.set_attr("element_type", et.name))
    values = _dims(got.shape)
    if values is not None and "shape" in param.data:
        try:
            declared = parse_shape(param.data["shape"])
        except ValueError:
            declared = None
        if declared != got.shape:
            edits.append(tag.set_attr("shape", format_shape_attr(values, param.data["shape"])))
    edits += _port_edits(fc, param, param.outputs[0], got)
    return _fix(d, edits, f"body Parameter '{param.name}': declare what its port_map entry delivers")


def _const_need(layer: Layer) -> int | None:
    et = element_type(layer.data.get("element_type", ""))
    try:
        shape = parse_shape(layer.data.get("shape", ""))
    except ValueError:
        return None
    values = _dims(shape)
    if et is None or values is None or et.is_dynamic:
        return None
    count = 1
    for v in values:
        count *= v
    return et.nbytes(count)


@provides("W303", "safe or unsafe", "sets a Const's `size` to what its shape and element type need when the .bin "
                                    "holds those bytes: safe when the size was too large (OpenVINO reads only "
                                    "the bytes it needs), unsafe when it was too small (the model was refused)")
def fix_const_size(fc: FixContext, d: Diagnostic) -> Fix | None:
    layer = fc.layer(d.layer)
    if layer is None or layer.type != "Const":
        return None
    need = _const_need(layer)
    try:
        size, offset = int(layer.data["size"]), int(layer.data["offset"])
    except (KeyError, ValueError):
        return None
    w = fc.model.weights
    data_at = fc.data_at(layer)
    if need is None or need == 0 or size == need or offset < 0 or data_at is None or not w.usable \
            or offset + need > w.size:
        return None
    edit = Tag(fc.data, data_at).set_attr("size", str(need))
    return _fix(d, [edit], f"Const '{layer.name}': size {size} -> {need}", safe=size > need)
