"""What the console's expressions and `value()` read at the current stop.

An expression sees the names a breakpoint's condition sees (`x`, `outputs`, `iteration`, `iterations`,
`layer`; conditions.py) plus `value(LAYER, port, iteration)`, which reads any recorded output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from irlint.viewer.debugger.conditions import ConditionError, compile_expression, resolve_layer
from irlint.viewer.debugger.describe import describe_event, iteration_text, parse_iteration
from irlint.viewer.debugger.inspector import port_names

from irlint.interp.events import LayerEvaluated
from irlint.ir.model import Layer
from irlint.layerpath import find_layer

if TYPE_CHECKING:
    from irlint.viewer.debugger.session import Session


def port_index(layer: Layer, n: int, port: object) -> int:
    """The position among a layer's `n` recorded tensors of `port`: the inspector's name (`out7`, a Result's
    `in`) or the IR port id (7); None is the first. ValueError naming the ports there are."""
    names = port_names(layer, n)
    if port is None:
        return 0
    if isinstance(port, (int, np.integer)) and not isinstance(port, bool):
        ids = [p.id for p in (layer.inputs if names[:1] == ["in"] else layer.outputs)][:n]
        if int(port) in ids:
            return ids.index(int(port))
    elif isinstance(port, str) and port in names:
        return names.index(port)
    ports = ", ".join(names)
    raise ValueError(
        f"{layer.name!r} has no port {port!r}: its recorded port{'s are' if n > 1 else ' is'} {ports} "
        "(the inspector's names; a number is the IR's port id)"
    )


class Environment:
    """The names of the console at a session's current stop."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def stop_tensors(self) -> tuple[np.ndarray, ...]:
        """The current event's tensors: a layer's outputs (a Result's: what it receives), the body Parameters'
        values at an iteration's start, the body Results at its end, a TI/Loop/If's outputs when it is left,
        the run's outputs at its end."""
        ev = self.session.stepper.current
        cls = ev.__class__
        if cls is LayerEvaluated:
            return tuple(ev.outputs or ev.inputs)
        for name in ("params", "results", "outputs"):
            got = getattr(ev, name, None)
            if isinstance(got, Mapping):
                return tuple(got.values())
        return ()

    def names(self) -> dict[str, object]:
        """`x` (the first of `outputs`; absent when the event has no tensor), `outputs`, `iteration`,
        `iterations`, `layer`."""
        s = self.session
        ev = s.stepper.current
        its = s.current_iteration
        tensors = self.stop_tensors()
        layer = getattr(ev, "layer", None)
        env: dict[str, object] = {
            "outputs": tensors,
            "iteration": its[-1] if its else -1,
            "iterations": its,
            "layer": layer.name if layer is not None else "",
        }
        if tensors:
            env["x"] = tensors[0]
        return env

    def value(self, spec: object, port: object = None, iteration: object = None) -> np.ndarray:
        """`value('2/body/7')`, `value('LSTMCell_16', 7)`, `value('h_next', 'out7', 2)`: a layer's output (by
        id path, name or unique id; the port as the inspector names it, `out7` or its id 7, the first output
        when not given) as of the current stop: its latest recorded iteration, or the one given (loop
        iterations outer first: N, a tuple, or 'N.M'); a Const: its weights."""
        s = self.session
        try:
            layer = find_layer(s.model, resolve_layer(str(spec), s.model))
        except ConditionError as e:
            raise ValueError(str(e)) from None
        assert layer is not None
        its = None
        if iteration is not None:
            try:
                want = (
                    (int(iteration),)
                    if isinstance(iteration, (int, np.integer))
                    else (
                        parse_iteration(iteration) if isinstance(iteration, str) else tuple(int(k) for k in iteration)
                    )
                )
            except (TypeError, ValueError):
                raise ValueError(f"iteration {iteration!r}: give N, (N, M) or 'N.M' (0-based, outer first)") from None
            its = s.recorded_at(layer.path, want)
            if its is None:
                raise ValueError(
                    f"{layer.name!r} has no recorded value at iteration {iteration_text(want)} at this stop"
                )
        tensors = s.tensor(layer.path, its) or (s.const_value(layer) if layer.type == "Const" else None)
        if not tensors:
            raise ValueError(f"{layer.path} {layer.name!r} ({layer.type}) has no recorded value at this stop")
        return tensors[port_index(layer, len(tensors), port)]

    def evaluate(self, text: str) -> object:
        """Evaluate an expression of the console over the current stop with the conditions' whitelist (and
        `value`); ConditionError when it is refused or names what this stop does not have."""
        fn = compile_expression(text, {"value": self.value}, what="expression")
        try:
            return fn(self.names())
        except NameError as e:
            name = getattr(e, "name", None) or str(e)
            ev = self.session.stepper.current
            where = describe_event(ev) if ev is not None else "nothing ran yet"
            raise ConditionError(
                f"{name!r} has no value at this stop ({where}); value('LAYER') reads a layer's recorded output"
            ) from None
