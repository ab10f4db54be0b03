"""Set value / what-if (key =): replace an output of the layer the run is paused at and go on from there.

The executor hands each layer's outputs to the debugger in a LayerEvaluated event and, when the event's
`outputs` were replaced while it was paused, goes on with the new ones (irlint/interp/executor.py), so
everything computed after this stop sees the edit. The edit is recorded as that iteration's value, the
status line says the run is altered, and stepping back or restarting runs again without it (the
recorder notes the value as recorded anew, so a step back restarts the run).

The text is an expression giving the whole new value, `x` being the output's current value
(`clip(x, -1, 1)`, `x * 0`, `load('h.npy')`), or `x[SLICE] = EXPR` for part of it (`x[0, :2] = 0.5`).
The result keeps the output's shape and element type.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import numpy as np
from irlint.viewer.debugger.conditions import ConditionError, compile_expression
from irlint.viewer.debugger.inspector import port_names, summary

from irlint.interp.events import LayerEvaluated
from irlint.layerpath import iteration_label

if TYPE_CHECKING:
    from irlint.viewer.debugger.session import Session


def load_npy(path: object) -> np.ndarray:
    """`load('h.npy')`: an array saved with numpy.save (no pickles)."""
    name = str(path)
    if not name.endswith(".npy"):
        raise ValueError(f"load({name!r}): give a .npy file (numpy.save's format)")
    try:
        return np.load(name, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise ValueError(f"load({name!r}): {e}") from None


def split_assignment(text: str) -> tuple[str | None, str]:
    """`x[0, :2] = 0.5` -> ('0, :2', '0.5'); `x = EXPR` -> (None, EXPR); an expression -> (None, text)."""
    try:
        tree = ast.parse(text.strip(), mode="exec")
    except SyntaxError:
        return None, text  # an expression (or not even that): compile_expression says why
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assign):
        return None, text
    node = tree.body[0]
    target = node.targets[0]
    if len(node.targets) != 1 or not (
        (isinstance(target, ast.Name) and target.id == "x")
        or (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == "x")
    ):
        raise ConditionError(
            "only x (the output) or a slice of it can be set: x[0, :2] = 0.5, or an expression giving the whole value"
        )
    value = ast.get_source_segment(text.strip(), node.value) or ""
    if isinstance(target, ast.Name):
        return None, value
    return ast.get_source_segment(text.strip(), target.slice), value


class WhatIf:
    """The edits made to the running run (cleared when it runs again)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.changes: list[str] = []

    def set_value(self, text: str, port: int = 0) -> str:
        """Replace output `port` (its position) of the layer the run is paused at; returns what the log says.
        ConditionError or ValueError says why it was refused (nothing changes then)."""
        s = self.session
        ev = s.stepper.current
        if not isinstance(ev, LayerEvaluated) or not ev.outputs:
            raise ValueError(
                "set value edits the outputs of the layer the run is paused at: step to a layer "
                "(a Result passes on its input: set the layer that makes it)"
            )
        if s.recorder.cursor is not None:
            raise ValueError(
                "the run stands at an event kept for stepping back, behind where it computes: step "
                "forward to the latest event (c or s) to set a value there"
            )
        if s.stepper.finished:
            raise ValueError("the run is finished: R restarts it")
        port = port if 0 <= port < len(ev.outputs) else 0
        old = np.asarray(ev.outputs[port])
        try:
            new = self._edited(old, text)
        except (IndexError, TypeError, ArithmeticError) as e:  # x[5] of a [1, 4] tensor, ...: said, not raised
            raise ValueError(f"{text.strip()!r}: {e}") from None
        outs = list(ev.outputs)
        outs[port] = new
        ev.outputs = tuple(outs)  # the executor goes on with these
        its = s.current_iteration
        s.recorder.record(ev.layer.path, its, ev.outputs)  # as recorded anew: a step back runs again without it
        name = port_names(ev.layer, len(outs))[port]
        label = f"{ev.layer.name} {name} it {iteration_label(its, ev.layer.path)}"
        self.changes.append(f"{label}: {text.strip()}")
        return (
            f"what-if: {label} set by {text.strip()!r}: {summary(new)}; the run is altered from here "
            "(S, N, R and going back run it again without the change)"
        )

    def _edited(self, old: np.ndarray, text: str) -> np.ndarray:
        """A copy of `old` with the edit `text` made (an expression for the whole value, or `x[SLICE] = EXPR`)."""
        where, expr = split_assignment(text)
        functions = {"value": self.session.value, "load": load_npy, "clip": np.clip}
        env = {**self.session.environment.names(), "x": old}
        got = np.asarray(compile_expression(expr, functions, what="expression")(env))
        if got.dtype.kind not in "biuf":
            raise ValueError(f"the new value is {got.dtype.name}, not numbers")
        if old.dtype.kind in "biu" and got.dtype.kind == "f" and not np.isfinite(got).all():
            raise ValueError(f"the output is {old.dtype.name}: it holds no NaN or infinity")
        new = old.copy()
        if where is None:
            try:
                new[...] = np.broadcast_to(got, old.shape)
            except ValueError:
                raise ValueError(
                    f"the new value has shape {list(got.shape)}; the output has {list(old.shape)}"
                ) from None
        else:
            positions = compile_expression(f"x[{where}]", functions, what="expression")(
                {**env, "x": np.arange(old.size).reshape(old.shape)}
            )
            chosen = np.asarray(positions)
            try:
                new.reshape(-1)[chosen.reshape(-1)] = np.broadcast_to(got, chosen.shape).reshape(-1)
            except ValueError:
                raise ValueError(f"x[{where}] has shape {list(chosen.shape)}; the value {list(got.shape)}") from None
        return new

    def forget(self) -> None:
        """The run starts again: no edit."""
        self.changes.clear()
