"""An If layer compiled against its branches' programs: which outer input fills which branch slot,
which branch slot each output of the If reads.

An If runs like a TI/Loop body with one "iteration" (number 0): the executor evaluates the condition
(input port 0), binds the taken branch's program, fills its Parameters from the port map, runs it
through the same drivers as any level and reads the outputs from its Results. Compiled once per
layer (weakly cached), like `irlint.interp.loops.LoopCode`; the defects that make a branch
impossible to run are `ExecutionError`s raised when the branch is first taken.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from irlint.controlflow import scalar_flag
from irlint.controlflow.outputs import entry_of_port, order_departure
from irlint.interp.errors import ExecutionError
from irlint.interp.program import Program, program_for, slot_getter
from irlint.ir.model import Branch, Layer

CONDITION_PORT = 0  # an If's input port 0 is its condition (opset8)


@dataclass(frozen=True, slots=True)
class BranchCode:
    """One branch compiled: `feeds` (position of the If's input, body slot), `out_slots` the body slot
    each output of the If reads, in port order; the keys and getters the events and listeners use."""

    name: str  # "then" | "else"
    kind: str  # "then_body" | "else_body": the part of the branch's layer paths
    program: Program
    feeds: tuple[tuple[int, int], ...]
    out_slots: tuple[int, ...]
    param_keys: tuple[int | None, ...]  # body Parameter ids (IterationStarted.params)
    param_values: Callable[[list[Any]], Sequence[np.ndarray]]
    result_keys: tuple[int | None, ...]  # body Result ids (IterationFinished.results)
    result_values: Callable[[list[Any]], Sequence[np.ndarray]]
    trace_params: tuple[str, ...]  # the same ids with the branch named ("then_body/0"), for listeners
    trace_results: tuple[str, ...]
    # per output, True where the If's output is 1-D and this branch may give a scalar: OpenVINO's If
    # merges the two branches' shapes into one 1-D output and returns the scalar as (1,)
    widen: tuple[bool, ...] = ()
    # where an output entry's id names no output port: how OpenVINO's order maps the entries (the run
    # follows it and warns, once per layer and run), else ""
    remapped: str = ""

    def outputs(self, slots: list[Any]) -> tuple[np.ndarray, ...]:
        """The If's outputs from the bound branch's slots, in port order."""
        outs = tuple(slots[s] for s in self.out_slots)
        if any(self.widen):
            outs = tuple(np.reshape(o, (1,)) if w and np.ndim(o) == 0 else o for o, w in zip(outs, self.widen))
        return outs


_CODE: weakref.WeakKeyDictionary[Layer, dict[str, BranchCode]] = weakref.WeakKeyDictionary()

# (If layer, output port id) -> the rank shape inference gives that output (None: not known)
MergedRank = Callable[[Layer, int], int | None]


def condition(layer: Layer, args: Sequence[np.ndarray]) -> bool:
    """The If's condition: a 1-element tensor (OpenVINO: boolean, shape [] or [1])."""
    pos = next((i for i, p in enumerate(layer.inputs) if p.id == CONDITION_PORT), None)
    if pos is None or pos >= len(args):
        raise ExecutionError(f"{layer.describe()} has no input port {CONDITION_PORT} (its condition)", layer)
    flag = scalar_flag(args[pos])
    if flag is None:
        raise ExecutionError(f"{layer.describe()}: the condition has shape {list(np.shape(args[pos]))}; "
                             "it must hold one element", layer)
    return flag


def taken_branch(layer: Layer, args: Sequence[np.ndarray], constant: bool = False,
                 merged_rank: MergedRank | None = None) -> BranchCode:
    """The compiled branch the condition selects; `constant`: the condition is a Const; `merged_rank`:
    the inferred rank of each If output (where both branches meet), asked when the branch is compiled."""
    name = "then" if condition(layer, args) else "else"
    codes = _CODE.get(layer)
    if codes is None:
        codes = _CODE[layer] = {}
    code = codes.get(name)
    if code is None:
        branch = layer.branch(name)
        if branch is None:
            raise ExecutionError(f"{layer.describe()} takes its {name} branch, which the file does not have", layer)
        code = codes[name] = _compile(layer, branch, constant, merged_rank)
    return code


def _compile(layer: Layer, branch: Branch, constant: bool, merged_rank: MergedRank | None) -> BranchCode:
    program = program_for(branch.body)
    where = f"{layer.describe()}, {branch.name} branch"
    position = {p.id: i for i, p in enumerate(layer.inputs)}
    feeds: dict[int, int] = {}
    for e in branch.port_map:
        if e.direction != "input":
            continue
        if e.external_port_id not in position or e.external_port_id == CONDITION_PORT:
            raise ExecutionError(f"{where}: a port map input reads port {e.external_port_id}, which is not a data "
                                 f"input of the If", layer)
        slot = program.params.get(e.internal_layer_id)
        if slot is None:
            raise ExecutionError(f"{where}: a port map input feeds body layer {e.internal_layer_id}, which is not "
                                 "a Parameter", layer)
        feeds[slot] = position[e.external_port_id]
    read = {e.from_layer for e in branch.body.edges}
    for p in program.param_layers:
        if program.params.get(p.id) not in feeds and p.id in read:  # unfed and unread: IF806 warns
            raise ExecutionError(f"{where}: {p.describe()} receives no value (no port map input feeds it)", layer)
    produced: dict[int | None, int] = {}
    for port, e in entry_of_port(layer, branch.port_map).items():  # by order where an id names no port
        slot = program.result_slots.get(e.internal_layer_id)
        if slot is None:
            raise ExecutionError(f"{where}: a port map output reads body layer {e.internal_layer_id}, which is not "
                                 "a Result with an input", layer)
        produced[port] = slot
    outs = []
    for port in layer.outputs:
        if port.id not in produced:
            raise ExecutionError(f"{where}: output port {port.id} is produced by no port map output", layer)
        outs.append(produced[port.id])
    kind = f"{branch.name}_body"
    # with a constant condition OpenVINO validates the taken branch alone: no merge, the branch's own shape
    widen = tuple(not constant and _widens(layer, branch, port.id, merged_rank) for port in layer.outputs)
    keys = tuple(p.id for p in program.param_layers if p.id in program.params)
    results = tuple(program.result_slots)
    return BranchCode(branch.name, kind, program, tuple((pos, slot) for slot, pos in feeds.items()), tuple(outs),
                      keys, slot_getter([program.params[k] for k in keys]), results,
                      slot_getter(list(program.result_slots.values())),
                      tuple(f"{kind}/{k}" for k in keys), tuple(f"{kind}/{k}" for k in results), widen,
                      order_departure(layer, branch.port_map, f"{layer.describe()}, {branch.name} branch"))


def _widens(layer: Layer, branch: Branch, port: int | None, merged_rank: MergedRank | None) -> bool:
    """Whether a scalar `branch` gives for If output `port` is returned as (1,): where shape inference
    knows the output's rank, that rank is 1 (OpenVINO merges the shapes the branches' Results receive,
    whatever they declare: a `[]` and a `[1]` give `[1]`); else the branches' declared ranks decide."""
    rank = merged_rank(layer, port) if merged_rank is not None and port is not None else None
    if rank is not None:
        return rank == 1
    return _scalar_meets_one(layer, branch, port)


def _result_rank(layer: Layer, branch: Branch, port: int | None) -> int | None:
    """The rank of what a branch's Result for If output `port` declares, if known."""
    entry = entry_of_port(layer, branch.port_map).get(port)
    res = branch.body.layer(entry.internal_layer_id) if entry is not None else None
    if res is None or not res.inputs or res.inputs[0].shape is None:
        return None
    return len(res.inputs[0].shape)


def _scalar_meets_one(layer: Layer, branch: Branch, port: int | None) -> bool:
    """True if `branch` declares If output `port` a scalar and the other branch a 1-D value: OpenVINO
    merges the two into a 1-D output and returns a scalar branch's value as (1,) (docs/semantics.md,
    "Where two shapes meet")."""
    other = next((b for b in layer.branches if b is not branch), None)
    return other is not None and _result_rank(layer, branch, port) == 0 and _result_rank(layer, other, port) == 1
