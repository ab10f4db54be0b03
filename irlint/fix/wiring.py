"""Fix providers for the wiring of TensorIterator/Loop: port_map and back-edge ids one layer (or port)
off, a Loop special entry without its `purpose`, and a `part_size` that contradicts the body.

Ids are repaired only when exactly one neighbour (id - 1 or id + 1) fits: of the right type, not
used by another entry or back edge. That is still a guess at what the author meant: OpenVINO refused
the model before, or (an output entry naming no port) ran it with the entries given the outputs in
the order of their ids, which the neighbour need not keep; so these fixes are unsafe
(`--unsafe-fixes`). A `-1` entry without a
purpose can only mean one thing per direction, so adding the purpose is safe when it is unique.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from irlint.controlflow.readings import SliceError, resolve
from irlint.diagnostics import Diagnostic
from irlint.fix.registry import Fix, FixContext, provides
from irlint.fix.xmltext import Tag
from irlint.ir.declared import declared_info
from irlint.ir.model import BackEdge, Layer, PortMapEntry
from irlint.layerpath import owner_of

PURPOSES = {"input": "current_iteration", "output": "execution_condition"}


def _entry(layer: Layer, d: Diagnostic) -> PortMapEntry | None:
    """The port_map entry a finding points at (rules locate PM/SL findings at the entry)."""
    found = [e for e in layer.port_map if e.loc == d.loc]
    return found[0] if len(found) == 1 else None


def _layer_entry(fc: FixContext, d: Diagnostic) -> tuple[Layer, PortMapEntry] | None:
    """The layer a PM/SL finding names and the port_map entry it points at, when both are there."""
    layer = fc.layer(d.layer)
    e = _entry(layer, d) if layer is not None else None
    return (layer, e) if layer is not None and e is not None else None


def _back_edge(layer: Layer, d: Diagnostic) -> BackEdge | None:
    found = [be for be in layer.back_edges if be.loc == d.loc]
    return found[0] if len(found) == 1 else None


def _one(candidates: Iterable[int]) -> int | None:
    got = list(dict.fromkeys(candidates))
    return got[0] if len(got) == 1 else None


def _neighbours(value: int | None) -> tuple[int, ...]:
    return () if value is None else tuple(v for v in (value - 1, value + 1) if v >= 0)


def _set(fc: FixContext, d: Diagnostic, at: int, attr: str, value: int | str, what: str, safe: bool) -> Fix:
    return Fix(d.code, d.layer, d.port, (Tag(fc.data, at).set_attr(attr, str(value)),), what, safe)


def _fix_internal_id(fc: FixContext, d: Diagnostic) -> Fix | None:
    found = _layer_entry(fc, d)
    if found is None or found[0].body is None or found[1].purpose is not None:
        return None
    layer, e = found
    want = "Parameter" if e.direction == "input" else "Result"
    used = {o.internal_layer_id for o in layer.port_map if o is not e and o.direction == e.direction}
    body = layer.body
    new = _one(i for i in _neighbours(e.internal_layer_id)
               if (c := body.layer(i)) is not None and c.type == want and i not in used)
    if new is None:
        return None
    return _set(fc, d, e.at, "internal_layer_id", new, f"port_map <{e.direction}> of '{layer.name}': "
                f"internal_layer_id {e.internal_layer_id} -> {new}, the only unmapped {want} next to it", False)


provides("PM404", "unsafe", "points `internal_layer_id` at the neighbouring id (one less or one more) when exactly "
         "one of them is a body Parameter (input) or Result (output) no other entry maps")(_fix_internal_id)
provides("PM405", "unsafe", "as PM404: moves `internal_layer_id` to the only fitting neighbour")(_fix_internal_id)


@provides("PM401", "unsafe", "points `external_port_id` at the neighbouring port id when exactly one of them is a "
                             "port of the right side that no other entry maps")
def fix_external_id(fc: FixContext, d: Diagnostic) -> Fix | None:
    found = _layer_entry(fc, d)
    if found is None:
        return None
    layer, e = found
    ports = {p.id for p in (layer.inputs if e.direction == "input" else layer.outputs)}
    if layer.type == "Loop" and e.direction == "input":
        ports -= {0, 1}  # trip count and condition are not mapped
    used = {o.external_port_id for o in layer.port_map if o is not e and o.direction == e.direction}
    new = _one(i for i in _neighbours(e.external_port_id) if i in ports and i not in used)
    if new is None:
        return None
    return _set(fc, d, e.at, "external_port_id", new, f"port_map <{e.direction}> of '{layer.name}': "
                f"external_port_id {e.external_port_id} -> {new}, the only unmapped port next to it", False)


def _initial_values(layer: Layer) -> set[int | None]:
    return {e.internal_layer_id for e in layer.port_map if e.direction == "input" and not e.sliced}


@provides("BE501", "unsafe", "moves the back edge's `from-layer` to the neighbouring id when exactly one of them "
                             "is a body Result that no other back edge starts from")
def fix_back_edge_source(fc: FixContext, d: Diagnostic) -> Fix | None:
    return _move_back_edge_end(fc, d, "from", lambda loop, c, i: c.type == "Result")


@provides("BE502", "unsafe", "moves the back edge's `to-layer` to the neighbouring id when exactly one of them is "
                             "a body Parameter with an initial value that no other back edge feeds")
def fix_back_edge_target(fc: FixContext, d: Diagnostic) -> Fix | None:
    return _move_back_edge_end(fc, d, "to", lambda loop, c, i: c.type == "Parameter" and i in _initial_values(loop))


def _move_back_edge_end(fc: FixContext, d: Diagnostic, end: str,
                        fits: Callable[[Layer, Layer, int], bool]) -> Fix | None:
    """BE501/BE502's fix: move the back edge's `end` ("from" or "to") layer to the one neighbouring id
    whose body layer fits (`fits(loop, body layer, id)`) and that no other back edge uses at that end."""
    layer = fc.layer(d.layer)
    be = _back_edge(layer, d) if layer is not None and layer.body is not None else None
    if layer is None or layer.body is None or be is None:
        return None
    old = be.from_layer if end == "from" else be.to_layer
    used = {o.from_layer if end == "from" else o.to_layer for o in layer.back_edges if o is not be}
    body = layer.body
    new = _one(i for i in _neighbours(old) if (c := body.layer(i)) is not None and fits(layer, c, i) and i not in used)
    if new is None:
        return None
    return _set(fc, d, be.at, f"{end}-layer", new, f"back edge of '{layer.name}': {end}-layer {old} -> {new}", False)


def _purpose_fix(fc: FixContext, d: Diagnostic, layer: Layer, direction: str) -> Fix | None:
    """Add the purpose to the one `-1` entry of `direction` that lacks it, if the Loop has no such entry yet."""
    if layer.type != "Loop" or layer.body is None:
        return None
    purpose = PURPOSES[direction]
    if any(e.direction == direction and e.purpose == purpose for e in layer.port_map):
        return None
    bare = [e for e in layer.port_map if e.direction == direction and e.purpose is None and e.external_port_id == -1]
    if len(bare) != 1:
        return None
    e = bare[0]
    target = layer.body.layer(e.internal_layer_id)
    if target is None or target.type != ("Parameter" if direction == "input" else "Result"):
        return None
    return _set(fc, d, e.at, "purpose", purpose, f"port_map <{direction} external_port_id=\"-1\"> of "
                f"'{layer.name}': purpose=\"{purpose}\"", True)


@provides("LP703", "safe", "adds purpose=\"execution_condition\" to the Loop's one `<output external_port_id=\"-1\">` "
                           "entry without a purpose (the only thing such an entry can be)")
def fix_condition_purpose(fc: FixContext, d: Diagnostic) -> Fix | None:
    layer = fc.layer(d.layer)
    return _purpose_fix(fc, d, layer, "output") if layer is not None else None


@provides("PM406", "safe", "adds the missing `purpose` to a Loop entry with external_port_id=\"-1\" "
                           "(current_iteration on an input, execution_condition on an output) when it is the only "
                           "such entry")
def fix_special_purpose(fc: FixContext, d: Diagnostic) -> Fix | None:
    found = _layer_entry(fc, d)
    if found is None or found[1].purpose is not None or found[1].external_port_id != -1:
        return None
    return _purpose_fix(fc, d, found[0], found[1].direction)


def part_size_candidate(fc: FixContext, layer: Layer, e: PortMapEntry) -> int | None:
    """The part_size the body declares for a sliced TensorIterator input (its Parameter's dim on the axis),
    when it slices the outer dimension validly and differs from the entry's."""
    if layer.type != "TensorIterator" or layer.body is None or e.direction != "input" or not e.sliced:
        return None
    info = fc.ctx.shapes.loop(layer)
    sl = next((s for s in info.slicing if s.entry is e), None) if info is not None else None
    param = layer.body.layer(e.internal_layer_id)
    if sl is None or sl.axis is None or param is None or param.type != "Parameter" or sl.outer.shape is None:
        return None
    declared = declared_info(param).shape
    dim = sl.outer.shape[sl.axis].value
    if declared is None or dim is None or len(declared) != len(sl.outer.shape):
        return None
    want = declared[sl.axis].value
    others_agree = all(a.compatible(b) for i, (a, b) in enumerate(zip(declared, sl.outer.shape)) if i != sl.axis)
    if want is None or want < 1 or want == (e.part_size or 1) or not others_agree:
        return None
    try:
        resolve(dim, e.start, e.end, e.stride, want)
    except SliceError:
        return None
    return want


def part_size_fix(fc: FixContext, d: Diagnostic, layer: Layer, e: PortMapEntry) -> Fix | None:
    want = part_size_candidate(fc, layer, e)
    if want is None:
        return None
    return _set(fc, d, e.at, "part_size", want, f"port_map <input external_port_id={e.external_port_id}> of "
                f"'{layer.name}': part_size={want}, the slice its body Parameter declares", False)


@provides("SL603", "unsafe", "for a TensorIterator input whose part_size admits no slicing, sets `part_size` to "
                             "the slice its body Parameter declares when that one slices the dimension")
def fix_part_size(fc: FixContext, d: Diagnostic) -> Fix | None:
    found = _layer_entry(fc, d)
    return part_size_fix(fc, d, *found) if found is not None else None


def owner_entry(fc: FixContext, param: Layer) -> tuple[Layer, PortMapEntry] | None:
    owner = owner_of(fc.model, param.path)
    if owner is None:
        return None
    entries = [e for e in owner.port_map if e.direction == "input" and e.internal_layer_id == param.id]
    return (owner, entries[0]) if len(entries) == 1 else None
