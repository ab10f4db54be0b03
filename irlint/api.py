"""The Python API: `load` a model, `check` it, list the rules, `run`, `step` or `trace` it (with a `State`).

Wherever a model is taken it may be a path to an IR .xml, a loaded `Model`, or an `openvino.Model` in
memory (`ov.convert_model(...)`, or built with OpenVINO's API): irlint.ir.ovmodel serialises that one
in memory, its diagnostics then name `<openvino.Model 'name'>` and the serialised XML's lines.
`irlint.render` is the viewer's (irlint.viewer.notebook); the results show inline in Jupyter.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Union

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.engine.discovery import all_rules
from irlint.engine.runner import RunOptions, run_rules
from irlint.engine.selection import Selection
from irlint.ir import loader
from irlint.ir.codes import DTD_NOT_ALLOWED, MALFORMED_XML
from irlint.ir.loader import LoadError
from irlint.ir.model import Model
from irlint.ir.ovmodel import is_openvino_model, label, load_openvino_model
from irlint.report.notebook import Diagnostics
from irlint.rule import Rule

_UNREADABLE = frozenset({MALFORMED_XML.code, DTD_NOT_ALLOWED.code})

if TYPE_CHECKING:
    import numpy as np

    from irlint.interp import Options, State
    from irlint.interp.stepper import Breakpoint, Stepper
    from irlint.traced import TracedRun

__all__ = ["Diagnostics", "ModelLike", "State", "check", "check_model", "list_rules", "load", "run", "step", "trace"]

# A path to an IR .xml, a loaded Model, or an openvino.Model (not named: openvino is optional).
ModelLike = Union[str, "os.PathLike[str]", Model, Any]


def list_rules(rule_dirs: Sequence[str] = ()) -> list[Rule]:
    """Every known rule (loader rules, installed packs, and packs in `rule_dirs`), sorted by code."""
    return all_rules(rule_dirs)


def load(source: ModelLike, weights: str | os.PathLike[str] | None = None, *, two_cores: bool = False) -> Model:
    """Read an IR file, or serialise an `openvino.Model` in memory, into a `Model` (a `Model` is returned
    as it is); raises `LoadError` only if there is nothing to read at all."""
    if isinstance(source, Model):
        return source
    if is_openvino_model(source):
        return load_openvino_model(source)
    if not isinstance(source, (str, os.PathLike)):
        raise LoadError(
            f"expected a path to an IR .xml, an irlint Model or an openvino.Model, not "
            f"{type(source).__module__}.{type(source).__qualname__}"
        )
    return loader.load(source, weights, two_cores=two_cores)


def check_model(
    model: Model,
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    rule_dirs: Sequence[str] = (),
    debug: bool = False,
    two_cores: bool = False,
) -> Diagnostics:
    """Lint a loaded model. `two_cores`: on a large model, infer shapes in a forked process meanwhile
    (irlint.engine.parallel; the command line does this when it checks files one at a time)."""
    sel = Selection.build(select, extend_select, ignore)
    rules = sel.filter(all_rules(rule_dirs))
    if two_cores:
        from irlint.engine.parallel import run_rules_forked

        diags = run_rules_forked(model, rules, RunOptions(debug=debug))
    else:
        diags = run_rules(model, rules, RunOptions(debug=debug))
    return Diagnostics(sorted(diags, key=Diagnostic.sort_key), model)


def check(
    source: ModelLike,
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    weights: str | None = None,
    rule_dirs: Sequence[str] = (),
    debug: bool = False,
    two_cores: bool = False,
) -> Diagnostics:
    """Lint one IR file or `openvino.Model`; what cannot be read gives one IR001 error diagnostic (never
    raises). The result is a list of `Diagnostic`s that Jupyter shows as a table.

    `two_cores`: load and check a large model with a forked helper process (irlint.ir.twocore,
    irlint.engine.parallel); the diagnostics are the same."""
    try:
        model = load(source, weights, two_cores=two_cores)
    except LoadError as e:
        where = (
            label(source)
            if is_openvino_model(source)
            else (os.fspath(source) if isinstance(source, (str, os.PathLike)) else "<model>")
        )
        return Diagnostics(
            [
                Diagnostic(
                    MALFORMED_XML.code,
                    Severity.ERROR,
                    f"cannot read the model: {e}",
                    Location(where),
                    MALFORMED_XML.name,
                )
            ]
        )
    return check_model(
        model,
        select=select,
        ignore=ignore,
        extend_select=extend_select,
        rule_dirs=rule_dirs,
        debug=debug,
        two_cores=two_cores,
    )


def _runnable(source: ModelLike) -> Model:
    """`load`, refusing a model the loader could not read (malformed XML, a DOCTYPE, the reader's limits:
    `MALFORMED_XML`, `DTD_NOT_ALLOWED`): its graph is empty or partial, and running it would give nothing
    or a wrong answer silently."""
    model = load(source)
    unread = [d for d in model.diagnostics if d.code in _UNREADABLE]
    if unread:
        raise LoadError(f"{model.path} could not be read as an IR: {unread[0].code} {unread[0].message}")
    return model


def run(
    model: ModelLike, inputs: Mapping[str, np.ndarray], *, state: State | None = None, options: Options | None = None
) -> dict[str, np.ndarray]:
    """Execute a model with the reference interpreter; outputs keyed by top-level Result name.

    `state` keeps the ReadValue/Assign variables across calls, as one OpenVINO InferRequest does:
    pass the same `State()` to consecutive calls, `state.reset()` for `reset_state()`. It is updated
    only when the run succeeds. Imported lazily: `irlint check` never loads the interpreter."""
    from irlint.interp import run as interp_run

    return interp_run(_runnable(model), inputs, options, state=state)


def step(
    model: ModelLike,
    inputs: Mapping[str, np.ndarray],
    *,
    breakpoints: Sequence[Breakpoint] = (),
    state: State | None = None,
    options: Options | None = None,
) -> Stepper:
    """A `Stepper` over a run (irlint.interp.stepper): `step()`, `step_over()`, `step_into()`, `step_out()`,
    `next_iteration()`, `continue_()` each return the event they stop at (None once the run is over)."""
    from irlint.interp import execute
    from irlint.interp.stepper import Stepper

    return Stepper(execute(_runnable(model), inputs, options, state=state), list(breakpoints))


def trace(
    model: ModelLike,
    inputs: Mapping[str, np.ndarray],
    *,
    trace_all: bool = False,
    state: State | None = None,
    options: Options | None = None,
) -> TracedRun:
    """Run a model recording every body Parameter and Result per iteration (every layer's outputs with
    `trace_all`): the outputs, the recorded tensors, `.plot(layer, ...)` per iteration, and what
    `irlint.render(model, trace=..., iteration=K)` annotates the diagram with."""
    from irlint.traced import traced_run

    return traced_run(_runnable(model), inputs, trace_all=trace_all, state=state, options=options)


def __getattr__(name: str) -> Any:
    if name == "State":  # lazily, like `run`
        from irlint.interp.state import State

        return State
    raise AttributeError(f"module 'irlint.api' has no attribute {name!r}")
