"""Where a go-to (`g N.M`) stops: the loops it counts, whether the target is behind the run, and the
test the session's hook applies to every event on the way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irlint.viewer.debugger.describe import Iteration, iteration_text, short

from irlint.interp.events import BodyEntered, BodyLeft, Event, IterationStarted, LayerEvaluated, RunFinished
from irlint.layerpath import find_layer, project_its

if TYPE_CHECKING:
    from irlint.viewer.debugger.session import Session


def project(frames: tuple[tuple[str, int], ...], chain: list[str]) -> Iteration:
    """The iterations of the loops in `chain` (outer first) that `frames` are inside."""
    out: list[int] = []
    n = len(chain)
    for p, k in frames:
        if len(out) < n and p == chain[len(out)]:
            out.append(k)
    return tuple(out)


class Goal:
    """Where a go-to stops: the loops it counts, whether the target is behind, and the stop test."""

    def __init__(self, session: Session, target: Iteration, layer_path: str | None) -> None:
        self.session, self.target = session, target
        self.layer: str | None = None  # stop at this layer's value (else at the iteration's start)
        self.param: tuple[str, str | None, int] | None = None  # a body Parameter: (owner, branch or None, id)
        self.reached = False
        self.missed = ""
        self.too_deep = ""
        chain = session.loops.chain(layer_path) if layer_path else []
        if chain:
            if len(target) > len(chain):
                self.too_deep = (
                    f"{layer_path} is inside {len(chain)} loop{'s' if len(chain) > 1 else ''}: "
                    f"give at most {len(chain)} number{'s' if len(chain) > 1 else ''}"
                )
            elif len(target) == len(chain) and chain[-1] != layer_path:
                self.layer = layer_path
                layer = find_layer(session.model, layer_path)
                if layer is not None and layer.type == "Parameter" and layer_path.count("/") >= 2:
                    owner, part, pid = layer_path.rsplit("/", 2)
                    self.param = (owner, None if part == "body" else part.removesuffix("_body"), int(pid))
            chain = chain[: len(target)]
        else:  # no layer in a loop: the loops around the current event, else the first loop that deep
            ev = session.stepper.current
            frames = getattr(ev, "frames", ()) if ev is not None else ()
            chain = [p for p, _k in frames if (la := find_layer(session.model, p)) is not None and la.body is not None]
            chain = chain[: len(target)] if len(chain) >= len(target) else []
        self.chain: list[str] = chain

    def impossible(self) -> str:
        """Why the target cannot be reached at all (known before running), else ''."""
        if self.too_deep:
            return self.too_deep
        s = self.session
        for path, k in zip(self.chain, self.target):
            loop = find_layer(s.model, path)
            name = short(loop) if loop is not None else path
            exact, bound = s.loops.static_count(path)
            if bound is not None and k >= bound:
                return f"{name} runs {'' if exact else 'at most '}{bound} iterations (0..{bound - 1})"
            cap = s.options.max_iterations
            if k >= cap:
                return f"{name} stops at --max-iterations {cap} (0..{cap - 1})"
            limit = s.recorder.limit(path) if bound is None and "/" not in path else None
            if limit is not None and k >= limit:  # a top-level loop runs alike in every run of these inputs
                return (
                    f"{name} runs {'' if loop is not None and loop.type == 'TensorIterator' else 'at most '}"
                    f"{limit} iterations with these inputs (0..{limit - 1})"
                )
        return ""

    def behind(self) -> bool:
        """Whether the target lies behind the run's position (so only a restart gets there): the innermost
        loop it counts has started that iteration or a later one, and its start (or the layer's value in
        it) has passed."""
        s = self.session
        if s.stepper.finished:
            return True
        if not self.chain:
            return False
        loop = self.chain[-1]
        started = s.recorder.started.get(loop)
        if started is None:
            return False
        at = project_its(started, f"{loop}/body/0")  # the loops' iterations at that start, its own last
        if at != self.target:
            return at > self.target
        if self.layer is None:  # in the target iteration: behind unless the run stands at its start
            ev = s.stepper.current
            return not (isinstance(ev, IterationStarted) and ev.layer.path == loop)
        last = s.recorder.last.get(self.layer)
        return last is not None and project_its(last, self.layer) == self.target

    def stop(self, ev: Event) -> bool:
        """The hook's test: True at the target, or as soon as the run is past it (`missed` says why)."""
        cls = ev.__class__
        if cls is RunFinished:
            return False
        chain = self.chain
        if not chain:  # the first loop as deep as the target decides which loops are meant
            if cls is not IterationStarted or ev.branch is not None:
                return False
            loops = [
                p
                for p, _k in ev.frames
                if (la := find_layer(self.session.model, p)) is not None and la.body is not None
            ]
            if len(loops) != len(self.target):
                return False
            self.chain = chain = loops
        pos = project(ev.frames, chain)
        want = self.target[: len(pos)]
        if pos == self.target:
            if self.layer is None:
                hit = cls is IterationStarted and ev.layer.path == chain[-1]
            elif self.param is not None:
                owner, branch, pid = self.param
                hit = cls is IterationStarted and ev.layer.path == owner and ev.branch == branch and pid in ev.params
            else:
                hit = cls is LayerEvaluated and ev.layer.path == self.layer
            if hit:
                self.reached = True
            return hit
        if (
            cls is BodyEntered
            and pos == want
            and len(pos) < len(chain)
            and ev.layer.path == chain[len(pos)]
            and ev.limit is not None
            and self.target[len(pos)] >= ev.limit
        ):  # refused where the loop begins
            self.missed = f"{short(ev.layer)} runs at most {ev.limit} iterations (0..{ev.limit - 1})"
            return True
        if pos < want:
            return False
        if pos > want:
            self.missed = (
                f"{self.layer} was not evaluated in iteration {iteration_text(self.target)}"
                if self.layer is not None and len(pos) == len(self.target)
                else "the run went past it"
            )
            return True
        if cls is BodyLeft and len(pos) < len(chain) and ev.layer.path == chain[len(pos)]:
            self.missed = f"{short(ev.layer)} ended after {ev.iterations} iteration{'s' if ev.iterations != 1 else ''}"
            return True
        return False
