"""Run the selected rules over a model and collect every diagnostic; never stop at the first.

Order: loader diagnostics, then model-wide rules, then op-local layer rules at every level, then
graph-level rules (bodies included). A rule that raises becomes one `IR900 internal-error`
diagnostic naming the rule; the other rules still run.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.engine.context import Context
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
                      f.hint)


def _internal(r: Rule, exc: BaseException, loc: Location, debug: bool) -> Diagnostic:
    msg = f"rule {r.code} ({r.name}) crashed: {type(exc).__name__}: {exc}"
    if debug:
        msg += "\n" + "".join(traceback.format_exception(exc)).rstrip()
    return Diagnostic(
        INTERNAL_ERROR.code, Severity.ERROR, msg, loc, INTERNAL_ERROR.name,
        hint="this is a bug in irlint or in the rule pack; please report it with the model "
        "(run with --debug for the traceback)",
    )


def _drain(r: Rule, it: Iterator[Finding], out: list[Diagnostic], loc: Location, debug: bool) -> None:
    try:
        for f in it:
            out.append(_stamp(r, f))
    except Exception as e:  # the contract: a broken rule becomes IR900 and the other rules still run
        out.append(_internal(r, e, loc, debug))


def run_rules(model: Model, rules: Sequence[Rule], options: RunOptions | None = None) -> list[Diagnostic]:
    """Every diagnostic of `rules` on `model`, loader diagnostics included (when their code is selected)."""
    opts = options or RunOptions()
    codes = {r.code for r in rules}
    out = [d for d in model.diagnostics if d.code in codes]
    if not model.graph.layers and any(d.code in ("IR001", "IR002") for d in model.diagnostics):
        return out  # nothing parsed (or a DTD refused): further rules would only repeat that
    ctx = Context(model)
    b = _bucket(rules)
    for r in b.model:
        _drain(r, _call(r, ctx), out, model.loc, opts.debug)
    graphs = list(model.graphs())
    for g in graphs:
        for layer in g.layers:
            for r in b.layer_any + b.layer_typed.get(layer.type, []):
                _drain(r, _call(r, ctx, g, layer), out, layer.loc, opts.debug)
    for g in graphs:
        for r in b.graph:
            _drain(r, _call(r, ctx, g), out, g.loc, opts.debug)
    return out


def _call(r: Rule, *args: object) -> Iterator[Finding]:
    """Call a check lazily so an exception raised before its first yield is caught by `_drain`."""
    assert r.check is not None
    result = r.check(*args)
    if result is None:
        return iter(())
    yield from result
