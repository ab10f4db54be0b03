"""A graph level compiled once into a straight-line program over numbered value slots.

The schedule (`schedule.py`) says in which order layers run; the program resolves every input of
every layer to a slot index once, so executing a layer is `fn([slots[i] for i in srcs])` — no
dictionary of (layer, port) keys per value, no per-layer type tests. Parameters and Consts are
slots filled before the body runs; Results only name the slot they read. Programs are cached
weakly per `Graph`, like schedules; what depends on one run (constant arrays, bound kernels, the
slot list itself) lives in the executor (`irlint.interp.executor`).
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from irlint.controlflow import CONTROL_FLOW
from irlint.interp.errors import ExecutionError
from irlint.interp.schedule import Step, schedule_for
from irlint.ir.model import BRANCHING, Graph, Layer

# Instruction kinds: an op with a kernel, a nested TensorIterator/Loop, a Result (events only), an If.
OP, LOOP, RESULT, BRANCH = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class Instr:
    kind: int
    step: Step
    srcs: tuple[int, ...]  # slot of each input port, in port order
    dsts: tuple[int, ...]  # slot of each output port, in port order
    # an If whose condition is a Const: OpenVINO then shapes its outputs as the taken branch alone does
    constant_condition: bool = False

    @property
    def layer(self) -> Layer:
        return self.step.layer


@dataclass(frozen=True, slots=True)
class Program:
    """One graph level: `order` is every op, loop and Result in schedule order (what events show);
    `params`/`consts` are the slots filled before it runs; `result_slots` maps a Result's layer id to
    the slot it reads."""

    graph: Graph
    nslots: int
    params: dict[int | None, int]  # Parameter layer id -> slot of its (first) output
    param_layers: tuple[Layer, ...]  # Parameters in schedule order (each must receive a value)
    consts: tuple[tuple[Layer, int], ...]  # Const layer, slot of its (first) output
    order: tuple[Instr, ...]
    result_slots: dict[int | None, int]  # Result layer id -> slot it reads (schedule's result_sources)


_CACHE: weakref.WeakKeyDictionary[Graph, Program] = weakref.WeakKeyDictionary()


def program_for(graph: Graph) -> Program:
    """The program of one graph level (compiled once per Graph object)."""
    cached = _CACHE.get(graph)
    if cached is not None:
        return cached
    schedule = schedule_for(graph)
    where: dict[tuple[int, int], int] = {}  # (layer id, port id) -> slot; the latest writer wins
    nslots = 0
    params: dict[int | None, int] = {}
    param_layers: list[Layer] = []
    consts: list[tuple[Layer, int]] = []
    order: list[Instr] = []

    def new_slots(layer: Layer, count: int) -> tuple[int, ...]:
        nonlocal nslots
        slots = []
        for port in layer.outputs[:count]:
            where[(layer.id, port.id)] = nslots  # type: ignore[index]
            slots.append(nslots)
            nslots += 1
        return tuple(slots)

    for step in schedule.steps:
        layer = step.layer
        srcs = []
        for port, src in zip(layer.inputs, step.sources):
            slot = where.get(src)
            if slot is None:
                raise ExecutionError(f"input port {port.id} of {layer.describe()} reads port {src[1]} of layer "
                                     f"{src[0]}, which has no such output", layer)
            srcs.append(slot)
        kind = layer.type
        if kind == "Parameter":
            param_layers.append(layer)
            out = new_slots(layer, 1)  # a Parameter holds one value, on its first output port
            if out:
                params[layer.id] = out[0]
        elif kind == "Const":
            out = new_slots(layer, 1)
            if out:
                consts.append((layer, out[0]))
        elif kind == "Result":
            order.append(Instr(RESULT, step, tuple(srcs), ()))
        else:
            dsts = new_slots(layer, len(layer.outputs))
            code = LOOP if kind in CONTROL_FLOW else BRANCH if kind in BRANCHING else OP
            fixed = code == BRANCH and bool(srcs) and any(slot == srcs[0] for _c, slot in consts)
            order.append(Instr(code, step, tuple(srcs), dsts, fixed))
    result_slots = {i.layer.id: i.srcs[0] for i in order if i.kind == RESULT and i.srcs}
    program = _CACHE[graph] = Program(graph, nslots, params, tuple(param_layers), tuple(consts), tuple(order),
                                      result_slots)
    return program


def slot_getter(slots: Sequence[int]) -> Callable[[list[Any]], Any]:
    """slots -> the values at these indices, as a sequence (a tuple, by itemgetter in C for two or more)."""
    if len(slots) >= 2:
        return operator.itemgetter(*slots)
    if slots:
        i = slots[0]
        return lambda values: (values[i],)
    return lambda values: ()
