"""Check one large model on two cores: shape inference and the rules that read shapes run in a forked
child while this process runs the other rules.

Why: on a 100,000-layer model shape inference and the rules are each about half of the checking
time, and a CI machine has a second core idle while one file is linted (docs/performance.md measures
it). The child inherits the loaded model through fork (nothing is re-parsed),
sends back its diagnostics pickled through a pipe, and exits without cleanup. If fork is not
available, the model is small, or the child fails in any way, the rules run here as usual: the
result is the same either way, only the time differs.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Sequence

from irlint import forksafe
from irlint.diagnostics import Diagnostic
from irlint.engine.context import Context
from irlint.engine.recovery import fold_consequences
from irlint.engine.runner import RunOptions, run_rules
from irlint.gcpause import paused_gc
from irlint.ir.model import Model
from irlint.rule import Rule

MIN_LAYERS = 10_000  # at 10,000 layers the split and one process are level (docs/performance.md)
_CHILD_FAILED = 70


def _layer_count(model: Model, limit: int) -> int:
    n = 0
    for g in model.graphs():
        n += len(g.layers)
        if n >= limit:
            break
    return n


def run_rules_forked(model: Model, rules: Sequence[Rule], options: RunOptions | None = None,
                     min_layers: int = MIN_LAYERS) -> list[Diagnostic]:
    """`run_rules`, with the shape-reading rules in a forked child when that can pay off."""
    shaped = [r for r in rules if r.uses_shapes]
    plain = [r for r in rules if not r.uses_shapes]
    if not shaped or not plain or not hasattr(os, "fork") or _layer_count(model, min_layers) < min_layers:
        return run_rules(model, rules, options)
    ctx = Context(model)
    with paused_gc():  # what both halves need, built once before the fork
        for g in model.graphs():
            idx = ctx.index(g)
            idx.sorted_layers()
            if g.is_body:  # the rules of both halves ask a body for its layers' readers
                idx.index_producers()
    try:
        read_end, write_end = os.pipe()
        pid = forksafe.fork()  # an interrupt meanwhile is raised here, not lost
    except OSError:
        return run_rules(model, rules, options, context=ctx)
    if pid == 0:  # the child: never returns
        code = _CHILD_FAILED
        try:
            os.close(read_end)
            data = pickle.dumps(run_rules(model, shaped, options, loader_diagnostics=False, context=ctx,
                                             fold=False))
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)  # no cleanup: the parent owns stdout, temporary files and the model
    os.close(write_end)
    pipe = os.fdopen(read_end, "rb")
    try:
        mine = run_rules(model, plain, options, context=ctx, fold=False)
        data = pipe.read()
    except BaseException:  # interrupted (or failing) here: the child's work is not wanted, end it now
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        raise
    finally:
        pipe.close()
        _, status = os.waitpid(pid, 0)
    theirs: list[Diagnostic] | None = None
    if os.waitstatus_to_exitcode(status) == 0:
        try:
            theirs = pickle.loads(data)
        except Exception:
            theirs = None
    if theirs is None:  # the child failed: run its rules here
        theirs = run_rules(model, shaped, options, loader_diagnostics=False, context=ctx, fold=False)
    return fold_consequences(mine + theirs)
