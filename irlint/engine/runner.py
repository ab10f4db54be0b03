"""Run the selected rules over a model and collect every diagnostic; never stop at the first.

Order: loader diagnostics, then model-wide rules, then op-local layer rules at every level, then
graph-level rules (bodies included). A rule that raises becomes one `IR900 internal-error`
diagnostic naming the rule; the other rules still run.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.engine.context import Context
from irlint.engine.recovery import fold_consequences
from irlint.gcpause import paused_gc
from irlint.ir.codes import INTERNAL_ERROR
from irlint.ir.model import Model
from irlint.rule import Finding, Rule


@dataclass
class RunOptions:
    """How the runner behaves; `debug` keeps tracebacks in internal-error messages."""

    debug: bool = False


@dataclass
class _Buckets:
    model: list[Rule] = field(default_factory=list)
    layer_any: list[Rule] = field(default_factory=list)
    layer_typed: dict[str, list[Rule]] = field(default_factory=dict)
    graph: list[Rule] = field(default_factory=list)


def _bucket(rules: Iterable[Rule]) -> _Buckets:
    b = _Buckets()
    for r in rules:
        if r.scope == "model":
            b.model.append(r)
        elif r.scope == "graph":
            b.graph.append(r)
        elif r.scope == "layer":
            if r.types:
                for t in r.types:
                    b.layer_typed.setdefault(t, []).append(r)
            else:
                b.layer_any.append(r)
    return b


def _stamp(r: Rule, f: Finding) -> Diagnostic:
    return Diagnostic(r.code, f.severity or r.severity, f.message, f.loc, r.name, f.layer, f.port, f.related,
                      f.hint, f.claims, f.because, f.effect)


def _internal(r: Rule, exc: BaseException, loc: Location, debug: bool) -> Diagnostic:
    msg = f"rule {r.code} ({r.name}) crashed: {type(exc).__name__}: {exc}"
    if debug:
        msg += "\n" + "".join(traceback.format_exception(exc)).rstrip()
    return Diagnostic(
        INTERNAL_ERROR.code, Severity.ERROR, msg, loc, INTERNAL_ERROR.name,
        hint="this is a bug in irlint or in the rule pack; please report it with the model "
        "(run with --debug for the traceback)",
    )


class _Located(Protocol):
    @property
    def loc(self) -> Location: ...


def _drain(r: Rule, args: tuple[object, ...], out: list[Diagnostic], where: _Located, debug: bool) -> None:
    """Run one check and collect its findings; `where` (its layer, graph or model) is located only on a crash."""
    try:
        result = r.check(*args)  # type: ignore[misc]
        if result is not None:
            for f in result:
                out.append(_stamp(r, f))
    except Exception as e:  # the contract: a broken rule becomes IR900 and the other rules still run
        out.append(_internal(r, e, where.loc, debug))


def run_rules(model: Model, rules: Sequence[Rule], options: RunOptions | None = None, *,
              loader_diagnostics: bool = True, context: Context | None = None,
              fold: bool = True) -> list[Diagnostic]:
    """Every diagnostic of `rules` on `model`, loader diagnostics included (when their code is selected).

    `context` lets callers share indexes already built (irlint.engine.parallel builds them before it forks).
    `fold`: consequences become notes of their root (irlint.engine.recovery); a caller that merges the
    diagnostics of several runs folds the union itself.
    """
    opts = options or RunOptions()
    codes = {r.code for r in rules}
    out = [d for d in model.diagnostics if d.code in codes] if loader_diagnostics else []
    if not model.graph.layers and any(d.code in ("IR001", "IR002", "IR003") for d in model.diagnostics):
        return out  # nothing parsed (a DTD or an IR version refused): further rules would only repeat that
    with paused_gc():
        _run(context or Context(model), _bucket(rules), out, opts.debug)
    return fold_consequences(out) if fold else out


def _run(ctx: Context, b: _Buckets, out: list[Diagnostic], debug: bool) -> None:
    model = ctx.model
    for r in b.model:
        _drain(r, (ctx,), out, model, debug)
    graphs = list(model.graphs())
    by_type: dict[str, list[Rule]] = {}
    for g in graphs:
        for layer in g.layers:
            todo = by_type.get(layer.type)
            if todo is None:
                todo = by_type[layer.type] = b.layer_any + b.layer_typed.get(layer.type, [])
            args = (ctx, g, layer)
            for r in todo:
                _drain(r, args, out, layer, debug)
    for g in graphs:
        for r in b.graph:
            _drain(r, (ctx, g), out, g, debug)

