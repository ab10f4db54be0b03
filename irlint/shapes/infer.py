"""The inference pass: each level in topological order, bodies with the tensors their port_map gives.

Back edges are iterated to a fixed point: a body is inferred with the initial values of its merged
Parameters; if a back-edge Result then differs, the Parameter is widened (differing dims become
dynamic) and the body inferred again. Folding runs the op's kernel when every input value is a known
small constant, so ShapeOf -> Gather -> Concat -> Reshape chains and trip-count constants resolve.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from irlint import causes
from irlint.controlflow import (
    CONTROL_FLOW,
    EntryKind,
    SliceError,
    iteration_bound,
    loop_plan,
    never_run_shape,
    refine_with_body_condition,
    resolve,
    resolve_entry,
)
from irlint.controlflow.liveness import read_layers
from irlint.controlflow.outputs import entry_of_port
from irlint.controlflow.plan import CONDITION_PORT, TRIP_COUNT_PORT, LoopPlan
from irlint.controlflow.readings import never_slices, part_length
from irlint.controlflow.values import scalar_flag, scalar_value
from irlint.ir.declared import declared_info
from irlint.ir.index import GraphIndex
from irlint.ir.model import Branch, Graph, Layer, Model, PortMapEntry
from irlint.ir.weights import WeightsError
from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.ops.base import NotComputable
from irlint.shapes.merge import fits, one_element, union, widen
from irlint.shapes.result import UNKNOWN, EntrySlicing, LoopInfo, Poison, ShapeProblem, ShapeResult, port_key
from irlint.types import DYNAMIC, Dim, shape_values

FOLD_MAX_ELEMENTS = 4096  # constants larger than this are not folded (or read from the .bin)
MAX_FIXED_POINT_ROUNDS = 4


def infer_model(model: Model, index: Callable[[Graph], GraphIndex] | None = None) -> ShapeResult:
    """Infer every output port of every level; `index` shares the caller's edge indexes (built once)."""
    res = ShapeResult()
    _Inferer(model, res, index).graph(model.graph, {})
    return res


_INFERRED: weakref.WeakKeyDictionary[Model, ShapeResult] = weakref.WeakKeyDictionary()


def inferred(model: Model, index: Callable[[Graph], GraphIndex] | None = None) -> ShapeResult:
    """`infer_model` once per Model object, kept while the model lives: the rules and the interpreter
    (which reads the rank OpenVINO gives an If's output where its branches meet) share one pass."""
    res = _INFERRED.get(model)
    if res is None:
        res = _INFERRED[model] = infer_model(model, index)
    return res


def _small(info: TensorInfo) -> bool:
    vals = shape_values(info.shape)
    return vals is not None and math.prod(vals) <= FOLD_MAX_ELEMENTS


def _scalar(info: TensorInfo) -> int | None:
    """The single value of a known 1-element integer constant, else None."""
    if info.etype is None or info.etype.dtype is None or info.etype.dtype.kind not in "iu":
        return None
    return scalar_value(info.value)


def _flag(info: TensorInfo) -> bool | None:
    """The truth of a known 1-element constant, else None."""
    return scalar_flag(info.value)


def _widens_rank(layer: Layer, result: Layer) -> bool:
    """OpenVINO's Loop widens a back-edge Parameter to the Result's rank only where that Result is also a
    last-value output of the Loop; its TensorIterator never compares them (docs/semantics.md)."""
    return layer.type == "Loop" and any(e.direction == "output" and e.internal_layer_id == result.id
                                        and e.axis is None and e.purpose is None for e in layer.port_map)


def _conflicts(layer: Layer) -> dict[tuple[str, int | None], Poison]:
    """Poisons for the external ports that two port_map entries of the layer map (PM402 reports them):
    what either entry's body Parameter or Result carries is in doubt."""
    seen: dict[tuple[str, int | None], PortMapEntry] = {}
    out: dict[tuple[str, int | None], Poison] = {}
    fed: dict[int, PortMapEntry] = {}
    for e in layer.port_map:  # a body Parameter that two input entries feed (PM408)
        if e.direction == "input" and e.internal_layer_id is not None:
            if e.internal_layer_id in fed and ("body", e.internal_layer_id) not in out:
                out[("body", e.internal_layer_id)] = Poison(
                    causes.conflict(layer, "body", e.internal_layer_id),
                    f"two port_map entries feed body layer {e.internal_layer_id}", e)
            fed.setdefault(e.internal_layer_id, e)
    for e in layer.port_map:
        if e.external_port_id is None or e.external_port_id < 0 or e.purpose is not None:
            continue
        key = (e.direction, e.external_port_id)
        if key in seen and key not in out:
            out[key] = Poison(causes.conflict(layer, e.direction, e.external_port_id),
                              f"two port_map entries map {e.direction} port {e.external_port_id}", e)
        seen.setdefault(key, e)
    return out


def _mapped_again(layer: Layer, branch: Branch) -> dict[int, Poison]:
    """Branch Parameters fed by a second `<input>` entry of an If input port already mapped (IF809
    reports them): OpenVINO's reader keeps only the first entry and never connects this Parameter, so
    what the branch derives from it under the file's reading is in doubt."""
    seen: set[int] = set()
    out: dict[int, Poison] = {}
    for e in branch.port_map:
        if e.direction != "input" or e.external_port_id is None:
            continue
        if e.external_port_id in seen and e.internal_layer_id is not None:
            out.setdefault(e.internal_layer_id, Poison(
                causes.conflict(layer, f"{branch.name}_input", e.external_port_id),
                f"input port {e.external_port_id} is mapped twice in the {branch.name} branch", e))
        seen.add(e.external_port_id)
    return out


def _contradicts_itself(layer: Layer, info: TensorInfo) -> Poison | None:
    """A Parameter or Const whose `<data>` declares another element type or shape than its output port
    (T203/T204 report it): OpenVINO builds the tensor from `<data>`, so the ports written downstream
    for the port's declaration disagree with what flows."""
    port = layer.outputs[0] if layer.outputs else None
    if port is None or (info.etype == port.precision and info.shape == port.shape):
        return None  # (the common case: the port declares what <data> does)
    etype = info.etype
    if etype is not None and port.precision is not None and etype != port.precision and not etype.is_dynamic \
            and not port.precision.is_dynamic:
        return Poison(causes.layer(layer), f"{layer.describe()} declares {etype} in <data>, its port "
                                           f"{port.precision.precision}", layer)
    if info.shape is not None and port.shape is not None and info.shape != port.shape and port.shape != () \
            and not fits(info.shape, port.shape):
        return Poison(causes.layer(layer), f"{layer.describe()} declares another shape in <data> than its port",
                      layer)
    return None


def _misfit(param: Layer | None, delivered: TensorInfo) -> Poison | None:
    """A body Parameter whose declaration contradicts what its entry delivers (SL605 reports it): what
    the body derives from it differs from what the file declares downstream."""
    if param is None or param.type != "Parameter":
        return None
    declared = declared_info(param)
    etype_differs = delivered.etype is not None and declared.etype is not None and delivered.etype != declared.etype \
        and not declared.etype.is_dynamic
    if not etype_differs and fits(delivered.shape, declared.shape):
        return None
    port_id = param.outputs[0].id if param.outputs else 0
    return Poison(causes.port(param, port_id), f"{param.describe()} declares another tensor than it receives", param)


def _unmapped_poison(layer: Layer, plan: LoopPlan) -> Poison | None:
    """An input port without a port_map entry (PM403 reports it): a slice it fed may be missing from
    the iteration count, so the concatenated outputs are in doubt."""
    mapped = {e.entry.external_port_id for e in plan.entries if e.entry.direction == "input"}
    reserved = (TRIP_COUNT_PORT, CONDITION_PORT) if plan.is_loop else ()
    for p in layer.inputs:
        if p.id is not None and p.id not in reserved and p.id not in mapped:
            return Poison(causes.unmapped(layer, "input"), f"input port {p.id} has no port_map entry", layer)
    return None


def _loop_port_poison(layer: Layer, info: LoopInfo) -> Poison | None:
    """A Loop whose trip count is no integer or whose condition is no boolean (LP701/LP702 report it):
    its iteration count, and so its concatenated outputs, are in doubt."""
    for what, tensor, ok in (("trip count", info.trip_count, "iu"), ("execution condition", info.condition, "b")):
        dtype = tensor.etype.dtype if tensor.etype is not None else None
        if dtype is not None and dtype.kind not in ok:
            return Poison(causes.trip(layer), f"the {what} is {tensor.etype}", layer)
    return None


def _negative_axis_poison(layer: Layer, pe: Any) -> Poison | None:
    """A concatenated output with a negative axis (PM413 claims it): OpenVINO's core and CPU plugin give
    it one iteration's part (measured: TensorIterator, axis -1), so the spec's concatenated shape is moot."""
    entry = pe.entry
    if pe.kind is not EntryKind.CONCAT_OUTPUT or entry.axis is None or entry.axis >= 0:
        return None
    index = next(i for i, x in enumerate(layer.port_map) if x is entry)
    return Poison(causes.entry(layer, index), f"axis {entry.axis} is negative", entry)


class _Inferer:
    def __init__(self, model: Model, res: ShapeResult, index: Callable[[Graph], GraphIndex] | None) -> None:
        self.model = model
        self.res = res
        self.indexes: dict[int, GraphIndex] = {}
        self.shared_index = index
        self.attrs_cache: dict[tuple[type, int], tuple[Mapping[str, str], Any, list[str]]] = {}
        # op.infer results for inputs without values: layers of a repeated block share them
        self.infer_cache: dict[tuple[Any, ...], tuple[Any, list[TensorInfo]]] = {}
        self.ops: dict[tuple[str, str], Any] = {}  # registry lookups by (type, version)
        # Const outputs whose value is not read yet, by id of their TensorInfo (kept alive here)
        self.unread: dict[int, tuple[TensorInfo, Layer]] = {}

    def index(self, graph: Graph) -> GraphIndex:
        if self.shared_index is not None:
            return self.shared_index(graph)
        idx = self.indexes.get(id(graph))
        if idx is None:
            idx = self.indexes[id(graph)] = GraphIndex.build(graph)
        return idx

    def bind(self, cls: type, data: Mapping[str, str]) -> tuple[Any, list[str]]:
        """`bind_attrs` once per distinct `<data>` mapping (the loader shares equal ones between layers)."""
        key = (cls, id(data))
        hit = self.attrs_cache.get(key)
        if hit is None or hit[0] is not data:
            attrs, problems = bind_attrs(cls, data)
            hit = self.attrs_cache[key] = (data, attrs, problems)
        return hit[1], hit[2]

    def problem(self, layer: Layer, message: str, port: int | None = None, internal: bool = False,
                poison: Poison | None = None) -> None:
        """Record what an op rejects; its outputs are poisoned (by its inputs' defect, or by this one)."""
        self.res.problems.append(ShapeProblem(layer, message, port, internal, poison))
        if not internal:
            self.poison_outputs(layer, poison or Poison(causes.op(layer), message, layer))

    def poison_outputs(self, layer: Layer, poison: Poison | None) -> None:
        if poison is not None:
            for port in layer.outputs:
                if port.id is not None:
                    self.res.poisoned[port_key(layer, port.id)] = poison

    def input_poison(self, graph: Graph, layer: Layer) -> Poison | None:
        """The defect one of `layer`'s inputs derives from (None on the fast path: nothing is poisoned)."""
        poisoned = self.res.poisoned
        if not poisoned:
            return None
        source, by_id = self.index(graph).source, graph.by_id
        for p in layer.inputs:
            e = source(layer.id, p.id)
            src = by_id.get(e.from_layer) if e is not None else None  # type: ignore[arg-type]
            if src is not None and e is not None and e.from_port is not None:
                found = poisoned.get(port_key(src, e.from_port))
                if found is not None:
                    return found
        return None

    # -- one level -----------------------------------------------------------------------------
    def inputs_of(self, graph: Graph, layer: Layer) -> list[TensorInfo]:
        """What feeds each input port (UNKNOWN when nothing known does); the hottest loop of inference."""
        source = self.index(graph).source
        by_id, outputs, lid = graph.by_id, self.res.outputs, layer.id
        out = []
        for p in layer.inputs:
            e = source(lid, p.id)
            src = by_id.get(e.from_layer) if e is not None else None  # type: ignore[arg-type]
            if src is None:
                out.append(UNKNOWN)
                continue
            fp = e.from_port  # type: ignore[union-attr]
            outs = src.outputs  # port_key, inlined
            out.append(outputs.get(src if outs and outs[0].id == fp else (src, fp), UNKNOWN))
        return out

    def graph(self, graph: Graph, params: Mapping[int, TensorInfo],
              poisons: Mapping[int, Poison] | None = None) -> None:
        for layer in self.index(graph).topological_order():
            if layer.type == "Parameter":
                info = params.get(layer.id, declared_info(layer)) if layer.id is not None else UNKNOWN
                self.set_outputs(layer, [info])
                if poisons and layer.id in poisons:
                    self.poison_outputs(layer, poisons[layer.id])
                elif layer.id not in params:
                    self.poison_outputs(layer, _contradicts_itself(layer, info))
            elif layer.type == "Const":
                info = self.const(layer)
                self.set_outputs(layer, [info])
                self.poison_outputs(layer, _contradicts_itself(layer, info))
            elif layer.type == "Result":
                continue
            elif layer.type in CONTROL_FLOW and layer.body is not None:
                self.loop(graph, layer)
            elif layer.branches:
                self.branching(graph, layer)
            else:
                self.op(graph, layer)

    def set_outputs(self, layer: Layer, infos: Sequence[TensorInfo]) -> None:
        for port, info in zip(layer.outputs, infos):
            if port.id is not None:
                self.res.outputs[port_key(layer, port.id)] = info

    def const(self, layer: Layer) -> TensorInfo:
        """A Const's declared tensor; a small one's value is read from the .bin when a consumer needs it."""
        info = declared_info(layer)
        if info.etype is None or info.etype.dtype is None or not _small(info):
            return info
        self.unread[id(info)] = (info, layer)
        return info

    def valued(self, info: TensorInfo) -> TensorInfo:
        """`info` with its value, if it is a small Const output whose value has not been read yet."""
        pending = self.unread.pop(id(info), None)
        if pending is None:
            return info
        layer = pending[1]
        vals = shape_values(info.shape)
        assert vals is not None and info.etype is not None
        try:
            value = self.model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), info.etype, vals)
        except (KeyError, ValueError, WeightsError):
            return info
        read = TensorInfo(info.etype, info.shape, value)
        self.set_outputs(layer, [read])
        return read

    def valued_inputs(self, graph: Graph, layer: Layer) -> list[TensorInfo]:
        return [self.valued(i) for i in self.inputs_of(graph, layer)]

    def op(self, graph: Graph, layer: Layer) -> None:
        key = (layer.type, layer.version)
        op = self.ops[key] if key in self.ops else self.ops.setdefault(key, lookup(*key))
        if op is None:
            return  # unknown type: outputs stay unknown (G110 says so once per type)
        attrs, problems = self.bind(op.Attrs, layer.data)
        poison = self.input_poison(graph, layer)
        if problems:
            for msg in problems:
                self.problem(layer, f"{layer.describe()}: {msg}", poison=poison)
            return
        inputs = self.inputs_of(graph, layer)
        if op.infer_reads_values or all(i.value is not None or id(i) in self.unread for i in inputs):
            inputs = [self.valued(i) for i in inputs]  # the op reads values, or may fold
        lo, hi = op.arity
        if len(inputs) < lo or (hi is not None and len(inputs) > hi):
            want = f"{lo}" if lo == hi else f"{lo} to {'any number' if hi is None else hi}"
            self.problem(layer, f"{layer.describe()} has {len(inputs)} inputs; {layer.type} takes {want}",
                         poison=poison)
            return
        try:
            outs = self.infer(op, attrs, inputs)
            if all(i.value is not None for i in inputs) and all(_small(o) for o in outs):
                outs = self.fold(op, attrs, inputs, outs)
        except OpError as e:
            self.problem(layer, f"{layer.describe()}: {e}", poison=poison)
            return
        except Exception as e:  # a crashing shape function must not take the other checks down
            self.problem(layer, f"shape function of {layer.type} crashed: {type(e).__name__}: {e}", internal=True)
            return
        self.set_outputs(layer, outs)
        self.poison_outputs(layer, poison)

    @staticmethod
    def fold(op: Any, attrs: Any, inputs: list[TensorInfo], outs: list[TensorInfo]) -> list[TensorInfo]:
        """`outs` with values computed from the inputs' constant values; unchanged where the interpreter
        cannot compute the op (`NotComputable` is a limit of irlint, not a defect of the IR)."""
        try:
            values = op.compute(attrs, [np.asarray(i.value) for i in inputs])
        except NotComputable:
            return outs
        return [TensorInfo(o.etype, o.shape, np.asarray(v)) for o, v in zip(outs, values)]

    def infer(self, op: Any, attrs: Any, inputs: list[TensorInfo]) -> list[TensorInfo]:
        """`op.infer`, memoised on (op, attrs, input types and shapes) when the op ignores values
        (`infer_reads_values = False`) or no input has one.

        The key holds ids; the cache entry keeps the keyed objects alive so an id is never reused.
        """
        if not inputs or (op.infer_reads_values and any(i.value is not None for i in inputs)):
            return op.infer(attrs, inputs)
        key = (id(op), id(attrs), *[(id(i.etype), i.shape) for i in inputs])
        hit = self.infer_cache.get(key)
        if hit is None:
            hit = self.infer_cache[key] = ((op, attrs, [i.etype for i in inputs]), op.infer(attrs, inputs))
        return list(hit[1])

    # -- If ------------------------------------------------------------------------------------
    def branching(self, graph: Graph, layer: Layer) -> None:
        """Both branches are inferred with what their port maps give their Parameters; an output is
        the taken branch's when the condition is a known constant, else the merge of both
        (`irlint.shapes.merge.union`, OpenVINO's reading of If). With a constant condition the other
        branch is recorded as not running and inferred from its own Parameters' declarations: OpenVINO
        checks it with those as it reads it, and never with what the If receives."""
        outer = {p.id: i for p, i in zip(layer.inputs, self.valued_inputs(graph, layer))}
        flag = _flag(outer.get(0, UNKNOWN))
        produced: dict[str, dict[int, TensorInfo]] = {}
        outer_poison = self.outer_poisons(graph, layer)
        for b in layer.branches:
            # a branch that never runs: what its Parameters declare, as OpenVINO reads and checks it
            dead = flag is not None and b.name == ("else" if flag else "then")
            params = {} if dead else {
                e.internal_layer_id: outer[e.external_port_id] for e in b.port_map
                if e.direction == "input" and e.internal_layer_id is not None and e.external_port_id in outer}
            poisons = {} if dead else {
                e.internal_layer_id: outer_poison[e.external_port_id] for e in b.port_map
                if e.direction == "input" and e.internal_layer_id is not None and e.external_port_id in outer_poison}
            if not dead:
                for param, poison in _mapped_again(layer, b).items():
                    poisons.setdefault(param, poison)
            self.graph(b.body, params, poisons)
            outs = produced[b.name] = {}
            for port, e in entry_of_port(layer, b.port_map).items():  # by order where an id names no port
                res_layer = b.body.layer(e.internal_layer_id)
                if res_layer is not None and res_layer.type == "Result" and res_layer.inputs:
                    outs[port] = self.inputs_of(b.body, res_layer)[0]  # type: ignore[index]
                    poison = self.input_poison(b.body, res_layer)
                    if poison is not None:
                        self.res.poisoned.setdefault(port_key(layer, port), poison)
        then, other = produced.get("then", {}), produced.get("else", {})
        if flag is not None:
            for b in layer.branches:
                if b.name == ("else" if flag else "then"):
                    self.res.dead[id(b.body)] = layer
        for port in layer.outputs:
            if port.id is None:
                continue
            if flag is not None:
                info = (then if flag else other).get(port.id)
            elif port.id in then and port.id in other:
                info = union(then[port.id], other[port.id])
            else:
                info = None
            if info is not None:
                self.res.outputs[port_key(layer, port.id)] = info

    # -- TensorIterator / Loop -----------------------------------------------------------------
    def loop(self, graph: Graph, layer: Layer) -> None:
        """The static driver of `irlint.controlflow`: body Parameters get what the plan says they
        receive, the bound comes from the known slices and Loop ports, back edges reach a fixed point."""
        body = layer.body
        assert body is not None
        plan = loop_plan(layer)
        info = LoopInfo(layer, plan)
        earlier = self.res.loops.get(layer.path)  # this layer's view in an earlier round of an enclosing body
        self.res.loops[layer.path] = info
        outer_inputs = {p.id: i for p, i in zip(layer.inputs, self.valued_inputs(graph, layer))}
        if plan.is_loop:
            info.trip_count = outer_inputs.get(TRIP_COUNT_PORT, UNKNOWN)
            info.condition = outer_inputs.get(CONDITION_PORT, UNKNOWN)
            trip = _scalar(info.trip_count)
            info.core_trip = trip if trip is not None else earlier.core_trip if earlier is not None else None

        params: dict[int, TensorInfo] = {}
        counts: list[tuple[int, str]] = []
        # a Loop's sliced input whose body Parameter nothing reads does not count: OpenVINO removes it
        read = read_layers(body) if plan.is_loop else set()
        outer_poison = self.outer_poisons(graph, layer)
        conflicts = _conflicts(layer)
        for index, pe in enumerate(plan.entries):
            entry, kind = pe.entry, pe.kind
            if kind is EntryKind.CURRENT_ITERATION:
                target = body.layer(entry.internal_layer_id)
                if target is not None and entry.internal_layer_id is not None:
                    params[entry.internal_layer_id] = declared_info(target)
                continue
            if entry.direction != "input" or kind is EntryKind.IGNORED:
                continue
            assert entry.internal_layer_id is not None
            outer = outer_inputs.get(entry.external_port_id, UNKNOWN)
            poison = (conflicts.get(("input", entry.external_port_id))
                      or conflicts.get(("body", entry.internal_layer_id)) or outer_poison.get(entry.external_port_id))
            if kind is EntryKind.SLICED_INPUT:
                sl = self.slice_entry(entry, outer, plan.is_loop)
                sl.poison = poison
                info.slicing.append(sl)
                params[entry.internal_layer_id] = self.sliced_param(outer, sl, entry)
                if sl.spec is not None and not (plan.is_loop and entry.internal_layer_id not in read):
                    counts.append((sl.spec.iterations, self.describe_count(entry, sl)))
                if sl.error is not None and poison is None:
                    poison = Poison(causes.entry(layer, index), sl.error, entry)
                if poison is not None and info.count_poison is None:
                    info.count_poison = poison  # the iteration count rests on this slice
            elif kind is EntryKind.MERGED_INPUT:
                params[entry.internal_layer_id] = TensorInfo(outer.etype, outer.shape)  # changes per iteration
            else:
                params[entry.internal_layer_id] = outer
            if poison is None:
                poison = _misfit(body.layer(entry.internal_layer_id), params[entry.internal_layer_id])
            if poison is not None:
                info.poisoned[entry.internal_layer_id] = poison
        if plan.is_loop and info.count_poison is None:
            info.count_poison = _loop_port_poison(layer, info) or outer_poison.get(TRIP_COUNT_PORT)
        if info.count_poison is None:
            info.count_poison = _unmapped_poison(layer, plan)
        info.bound = iteration_bound(plan.is_loop, counts, _scalar(info.trip_count), _flag(info.condition),
                                     sliced=bool(plan.sliced_inputs), unsliced=plan.unsliced_count)

        # Fixed point over back edges.
        for round_no in range(MAX_FIXED_POINT_ROUNDS + 1):
            info.params = dict(params)
            self.graph(body, params, info.poisoned)
            changed = False
            for be in layer.back_edges:
                res_layer, par = body.layer(be.from_layer), be.to_layer
                if res_layer is None or res_layer.type != "Result" or par not in params:
                    continue
                produced = self.inputs_of(body, res_layer)[0] if res_layer.inputs else UNKNOWN
                poison = self.input_poison(body, res_layer)
                if poison is not None and par not in info.poisoned:  # the next iteration receives it
                    info.poisoned[par] = poison
                    changed = True
                current = params[par]
                if current.shape is not None and produced.shape is not None \
                        and one_element(current.shape, produced.shape) and not _widens_rank(layer, res_layer):
                    continue  # one element either way: OpenVINO keeps the Parameter's shape here
                if produced.shape is not None and produced.shape != current.shape:
                    widened = widen(current, produced)
                    if widened.shape is not None and round_no == MAX_FIXED_POINT_ROUNDS - 1:
                        # still growing: give the changing dims no upper bound, then converge
                        widened = TensorInfo(widened.etype, tuple(
                            d if current.shape is not None and i < len(current.shape) and d == current.shape[i]
                            else Dim(d.lo, None) for i, d in enumerate(widened.shape)))
                    if widened.shape != current.shape:
                        params[par] = widened
                        changed = True
            if not changed:
                break
        if plan.is_loop:
            self.loop_condition(info, body)
        self.loop_outputs(layer, body, info)

    def outer_poisons(self, graph: Graph, layer: Layer) -> dict[int, Poison]:
        """The defects the layer's inputs derive from, by input port (empty on the fast path)."""
        if not self.res.poisoned:
            return {}
        out = {}
        source = self.index(graph).source
        for p in layer.inputs:
            e = source(layer.id, p.id)
            src = graph.by_id.get(e.from_layer) if e is not None else None  # type: ignore[arg-type]
            if src is not None and e is not None and e.from_port is not None and p.id is not None:
                found = self.res.poisoned.get(port_key(src, e.from_port))
                if found is not None:
                    out[p.id] = found
        return out

    def slice_entry(self, entry: PortMapEntry, outer: TensorInfo, is_loop: bool) -> EntrySlicing:
        """The entry's slicing of `outer`, in the reading irlint follows for a TensorIterator or a Loop."""
        sl = EntrySlicing(entry, outer)
        rank = outer.rank
        if entry.axis is None:
            return sl
        if entry.stride == 0:  # no dim makes it valid: OpenVINO's CPU plugin refuses a TI, divides by it in a Loop
            sl.error = "stride is 0: iteration would never advance"
        elif entry.part_size is not None and entry.part_size < 1:  # no dim makes it valid either
            sl.error = f"part_size is {entry.part_size}; it must be at least 1"
        if rank is None:
            return sl
        axis = entry.axis + rank if entry.axis < 0 else entry.axis
        if not 0 <= axis < rank:
            sl.error = f"axis {entry.axis} is outside the rank {rank} of the tensor"
            return sl
        sl.axis = axis
        dim = outer.shape[axis].value  # type: ignore[index]
        if dim is None:
            if not is_loop and sl.error is None:  # some attributes slice no length at all (start 0, end 2, part 2)
                why = never_slices(entry.start, entry.end, entry.stride, entry.part_size)
                if why is not None:
                    sl.error = f"on every length of the axis: {why.split(': ', 1)[-1]}"
            return sl
        sl.dim = dim
        try:
            sl.spec = resolve_entry(dim, is_loop, entry.start, entry.end, entry.stride, entry.part_size)
        except SliceError as e:
            sl.error = str(e)
        return sl

    def sliced_param(self, outer: TensorInfo, sl: EntrySlicing, entry: PortMapEntry) -> TensorInfo:
        if outer.shape is None or sl.axis is None:
            return TensorInfo(outer.etype, None)
        dims = list(outer.shape)
        dims[sl.axis] = _part_dim(entry.part_size)
        return TensorInfo(outer.etype, tuple(dims))

    @staticmethod
    def describe_count(entry: PortMapEntry, sl: EntrySlicing) -> str:
        spec = sl.spec
        assert spec is not None
        return (
            f"input port {entry.external_port_id} (axis {sl.axis}: elements {spec.start}..{spec.end} of "
            f"{spec.dim}, stride {spec.stride}, part_size {spec.part_size} -> {spec.iterations} iterations)"
        )

    def loop_condition(self, info: LoopInfo, body: Graph) -> None:
        """Refine a Loop's count with a constant body condition (false: do-while, one iteration)."""
        cond = info.plan.condition
        res_layer = body.layer(cond.body_layer) if cond else None
        if res_layer is None or not res_layer.inputs:
            return
        info.body_condition = self.valued(self.inputs_of(body, res_layer)[0])
        info.bound = refine_with_body_condition(info.bound, _flag(info.body_condition))

    def loop_outputs(self, layer: Layer, body: Graph, info: LoopInfo) -> None:
        outs: dict[int, TensorInfo] = {}
        conflicts = _conflicts(layer)
        for pe in info.plan.data_outputs:
            entry = pe.entry
            res_layer = body.layer(entry.internal_layer_id)
            if res_layer is None or res_layer.type != "Result" or not res_layer.inputs:
                continue
            produced = self.inputs_of(body, res_layer)[0]
            given = pe.port  # by order where an id names no output port (irlint.controlflow.outputs)
            assert given is not None
            poison = conflicts.get(("output", entry.external_port_id)) or self.input_poison(body, res_layer) \
                or (info.count_poison if pe.kind is EntryKind.CONCAT_OUTPUT else None) \
                or _negative_axis_poison(layer, pe)
            if poison is not None:
                self.res.poisoned[port_key(layer, given)] = poison
            if pe.kind is EntryKind.CONCAT_OUTPUT:
                sl = EntrySlicing(entry, produced)
                info.slicing.append(sl)
                outs[given] = self.concatenated(produced, entry, info, sl)
            else:
                outs[given] = TensorInfo(produced.etype, produced.shape)
            if info.plan.is_loop and _flag(info.condition) is False:  # as OpenVINO's core declares it
                out = outs[given]
                static = out.shape is not None and all(d.is_static for d in out.shape)
                outs[given] = TensorInfo(out.etype, never_run_shape(
                    pe.kind is EntryKind.CONCAT_OUTPUT, out.shape, Dim.of(0), static))
        for port in layer.outputs:
            if port.id in outs:
                self.res.outputs[port_key(layer, port.id)] = outs[port.id]

    @staticmethod
    def place_parts(sl: EntrySlicing, part: Dim, iterations: int | None, is_loop: bool) -> None:
        """Resolve a concatenated output's start/end/stride/part_size over the output it assembles
        (`iterations` parts of the body Result's length along the axis), as an input entry's are over
        its input: `sl.spec` says how many parts the entry places, `sl.error` why it places none. A
        Loop's output holds every iteration's whole part (OpenVINO reads neither start/end nor
        part_size there), so its spec is the whole axis in parts of the Result's length."""
        e = sl.entry
        if part.is_static and iterations is not None and not (is_loop and part.lo == 0):
            sl.dim = part.lo * iterations
            try:
                if is_loop:
                    sl.spec = resolve_entry(part.lo * iterations, True, e.start, e.end, e.stride, max(part.lo, 1))
                else:
                    sl.spec = resolve(part.lo * iterations, e.start, e.end, e.stride, e.part_size)
            except SliceError as err:
                sl.error = f"{err} (the output holds {iterations} parts of {part.lo})"
        elif e.stride == 0:
            sl.error = "stride is 0: iteration would never advance"
        elif e.part_size is not None and e.part_size < 1 and not is_loop:
            sl.error = f"part_size is {e.part_size}; it must be at least 1"

    def concatenated(self, produced: TensorInfo, entry: PortMapEntry, info: LoopInfo,
                     sl: EntrySlicing) -> TensorInfo:
        if produced.shape is None or entry.axis is None:
            return TensorInfo(produced.etype, None)
        shape = list(produced.shape)
        if not shape:
            shape = [Dim.of(1)]  # a rank-0 Result concatenates on axis 0 into rank 1
        axis = entry.axis + len(shape) if entry.axis < 0 else entry.axis
        if not 0 <= axis < len(shape):
            sl.error = f"axis {entry.axis} is outside the rank {len(shape)} of the body Result"
            return TensorInfo(produced.etype, None)
        sl.axis = axis
        d = shape[axis]
        self.place_parts(sl, d, info.iterations, info.plan.is_loop)
        if info.iterations is not None and d.is_static:
            shape[axis] = Dim.of(d.lo * info.iterations)
        elif info.max_iterations is not None and d.hi is not None:
            shape[axis] = Dim(0, d.hi * info.max_iterations)
        else:
            shape[axis] = DYNAMIC
        return TensorInfo(produced.etype, tuple(shape))


def _part_dim(part_size: int | None) -> Dim:
    """The sliced body Parameter's dim on the axis, as OpenVINO's core declares it (TensorIterator and
    Loop alike, measured on 2026.4): `part_size` (1 unless written); 0 for part_size 0 or below -1,
    dynamic for -1. The spec forbids a part_size below 1 (SL603 says so where the length is known), but
    OpenVINO reads such a model and infers the body from that dim."""
    if part_size is None:
        return Dim.of(part_length(None))
    if part_size >= 0:
        return Dim.of(part_size)
    return DYNAMIC if part_size == -1 else Dim.of(0)
