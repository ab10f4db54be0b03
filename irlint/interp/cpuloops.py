"""Where OpenVINO's CPU plugin refuses a TensorIterator/Loop at inference that irlint runs per the spec.

The static rules (SL607, SL608) see these only when the dims are static; a run knows them, so the
executor asks here after each execution and warns with a `DepartureWarning` (docs/semantics.md):

- A TensorIterator: the plugin counts the iterations of every sliced input on its run-time dim, and of
  every concatenated output whose length its core declares static, with its own reading of start/end
  (`cpu_plugin_iterations`), and refuses entries it reads as out of range or counts differently.
- A TensorIterator slicing an input of a dynamic dim over a sub-range the plugin reads otherwise
  (`sliced_departure`): it runs, over other elements and often another number of iterations (SL607
  says so where the dim is static).
- A TensorIterator or Loop concatenating a body value whose length on the axis is not |stride| (it fails
  at inference, or compiling where it finds the shapes static).
- A Loop that runs more iterations than the plugin has slices of a sliced input: it cuts a Loop's input
  into dim // |stride| parts whatever part_size says, and fails at the first iteration past them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from irlint.controlflow import SliceSpec, cpu_plugin_iterations, cpu_plugin_plan, spec_plan
from irlint.ir.model import Layer


@dataclass(frozen=True, slots=True)
class LoopSlices:
    """The sliced input of a Loop with the fewest parts as the CPU plugin cuts them (|stride| elements each)."""

    port: int | None
    dim: int  # the run-time length of the axis
    axis: int
    stride: int

    @property
    def count(self) -> int:
        return self.dim // abs(self.stride)


def fewest_loop_slices(entries: Sequence[LoopSlices]) -> LoopSlices | None:
    """Of a Loop's counted sliced inputs (a stride of 0 is SL603's and not counted), the one the CPU
    plugin has the fewest parts of, or None."""
    return min((e for e in entries if e.stride), key=lambda e: e.count, default=None)


def loop_slices_departure(layer: Layer, ran: int, plugin_runs: float, fewest: LoopSlices | None) -> str | None:
    """The warning for a Loop execution the CPU plugin fails, or None: irlint ran `ran` iterations, the
    plugin would start `plugin_runs` (more where irlint stopped after its own slices with the body
    condition still true), and it fails at the first iteration past `fewest`'s parts."""
    if fewest is None or plugin_runs <= fewest.count:
        return None
    return (f"{layer.describe()}: ran {ran} iteration(s); OpenVINO's CPU plugin cuts input port {fewest.port} "
            f"({fewest.dim} element(s) along axis {fewest.axis}) into parts of |stride| = {abs(fewest.stride)} "
            f"whatever part_size says, has {fewest.count} of them and fails at inference at iteration "
            f"{fewest.count} (\"Check 'iter >= 0 && iter < iter_count' failed\")")


@dataclass(frozen=True, slots=True)
class CountedEntry:
    """A sliced input or concatenated output as the plugin counts it: its run-time dim on the axis."""

    what: str  # "input port 0"
    dim: int
    start: int | None
    end: int | None
    stride: int | None


def count_departure(layer: Layer, entries: Sequence[CountedEntry]) -> str | None:
    """The warning for a TensorIterator whose entries the CPU plugin refuses (in its order: inputs, then
    outputs), or None when it counts the same number of iterations for all of them."""
    first: tuple[int, str] | None = None
    for e in entries:
        start = 0 if e.start is None else e.start
        end = -1 if e.end is None else e.end
        stride = 1 if e.stride is None else e.stride
        got = cpu_plugin_iterations(e.dim, start, end, stride)
        where = f"{e.what} (start={start} end={end} stride={stride} on a dim of {e.dim})"
        if isinstance(got, str):
            return (f"{layer.describe()}: {where} is sliced as the spec says; OpenVINO's CPU plugin reads `end` as "
                    f"exclusive and a negative value as dim + 1 + value, and refuses it at inference ({got})")
        if first is None:
            first = (got, where)
        elif got != first[0]:
            return (f"{layer.describe()}: OpenVINO's CPU plugin counts {first[0]} iterations for {first[1]} and "
                    f"{got} for {where} (end exclusive, a negative value as dim + 1 + value) and refuses the "
                    f"model at inference (\"There are at least two different iterations numbers: {first[0]} and "
                    f"{got}\"); irlint follows the spec")
    return None


def concat_departure(layer: Layer, port: int | None, stride: int | None, iterations: int, length: int) -> str | None:
    """The warning for a concatenated output whose `iterations` parts make `length` elements on the axis
    when the CPU plugin needs |stride| per part, or None."""
    step = abs(1 if stride is None else stride)
    if iterations <= 0 or length == iterations * step:
        return None
    part = f"{length // iterations}" if length % iterations == 0 else "a varying number of"
    return (f"{layer.describe()}: output port {port} concatenates {iterations} parts of {part} element(s) along "
            f"its axis, as the spec says; OpenVINO's CPU plugin takes |stride| = {step} per iteration and refuses "
            f"it, at inference (\"TensorIterator (Loop) has incorrect output shape[axis] after iteration for "
            f"concatenation. {step} is expected\") or compiling (\"Shape mismatch for tensor iterator port\")")


def sliced_departure(layer: Layer, what: str, axis: int, spec: SliceSpec) -> str | None:
    """The warning for a TensorIterator's sliced input whose elements the CPU plugin reads otherwise than the
    spec (end exclusive, a negative value as dim + 1 + value, start ignored when placing the slices), or
    None when both read the same or the plugin refuses the entry (`count_departure` says so)."""
    cpu = cpu_plugin_plan(spec.dim, spec.raw_start, spec.raw_end, spec.stride, spec.part_size)
    ours = spec_plan(spec)
    if cpu is None or cpu == ours or spec.iterations <= 0:
        return None
    return (f"{layer.describe()}: {what} (start={spec.raw_start} end={spec.raw_end} stride={spec.stride} on a dim "
            f"of {spec.dim}) is sliced as the spec says, {_parts(*ours)} along axis {axis}; OpenVINO's CPU plugin "
            f"reads `end` as exclusive and a negative value as dim + 1 + value, and reads {_parts(*cpu)}, so its "
            "results differ")


def _parts(first: int, count: int, step: int) -> str:
    """Slices as text: '3 slices from element 0 (parts of 1)'."""
    way = "" if step > 0 else " backwards"
    return f"{count} slice{'s' if count != 1 else ''} from element {first}{way} (parts of {abs(step)})"
