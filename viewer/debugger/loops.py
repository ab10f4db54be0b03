"""What the session knows of the loops: which loops number a layer's values, how many iterations a
loop runs (known statically, or once it runs), and 'k of N' for the status line."""

from __future__ import annotations

from irlint.viewer.debugger.describe import Iteration
from irlint.viewer.debugger.recorder import Recorder

from irlint.controlflow.values import scalar_flag
from irlint.ir.model import Model
from irlint.layerpath import find_layer, loop_positions, project_its


class Loops:
    """Loop facts of one model, read with the recorder's view of the run (bounds seen, iterations recorded)."""

    def __init__(self, model: Model, recorder: Recorder) -> None:
        self.model, self.recorder = model, recorder
        self._shapes = None  # the shape inference's loop facts, made on first use

    def chain(self, layer_path: str) -> list[str]:
        """The TI/Loop paths whose iterations a layer's values are numbered by, outer first (Ifs left out;
        a TI/Loop itself included: its iterations are what one goes to)."""
        parts = layer_path.split("/")
        chain = ["/".join(parts[: 2 * i + 1]) for i in loop_positions(layer_path)]
        layer = find_layer(self.model, layer_path)
        if layer is not None and layer.body is not None:
            chain.append(layer_path)
        return chain

    def recorded_at(self, layer_path: str, target: Iteration) -> Iteration | None:
        """The recorded iteration of a layer whose loop iterations are `target` (If frames skipped)."""
        if len(loop_positions(layer_path)) != len(target):
            return None
        for its in self.recorder.iterations_seen(layer_path):
            if project_its(its, layer_path) == target:
                return its
        return None

    def info(self, path: str):  # type: ignore[no-untyped-def]
        if self._shapes is None:
            from irlint.shapes import infer_model

            self._shapes = infer_model(self.model)
        return self._shapes.loops.get(path)

    def static_count(self, path: str) -> tuple[bool, int | None]:
        """(exact, count) of a TI/Loop known before running: its exact count, else an upper bound."""
        info = self.info(path)
        if info is None:
            return False, None
        if info.iterations is not None:
            return True, info.iterations
        return False, info.max_iterations

    def totals(self, frames: tuple[tuple[str, int], ...]) -> list[str]:
        """The iteration count of each loop in `frames`: 'N', '<=N' while its condition may end it sooner, '?'."""
        out = []
        for path, _k in frames:
            info = self.info(path)
            total: object = info.iterations if info is not None else None
            limit = self.recorder.limit(path)
            if total is None and limit is not None:  # known once the loop runs (a trip count from an input)
                exact = (
                    info is None
                    or not info.plan.is_loop
                    or info.plan.condition is None
                    or scalar_flag(info.body_condition.value) is True
                )
                total = limit if exact else f"<={limit}"
            if total is None and info is not None and info.max_iterations is not None:
                total = f"<={info.max_iterations}"
            out.append("?" if total is None else str(total))
        return out

    def totals_text(self, frames: tuple[tuple[str, int], ...], here: str, branch: str | None) -> list[str]:
        """'k of N' per loop of `frames` (k 0-based); an If frame shows the branch that runs ('else branch'),
        read from `here`, the path of the layer the run stands at, or from `branch` when it stands at the If."""
        out = []
        for (path, k), total in zip(frames, self.totals(frames)):
            layer = find_layer(self.model, path)
            if layer is not None and layer.branches:
                inner = here[len(path) + 1 :].split("/", 1)[0] if here.startswith(path + "/") else ""
                name = branch if here == path else inner.removesuffix("_body")
                out.append(f"{name} branch" if name else "branch")
            else:
                out.append(f"{k} of {total}")
        return out
