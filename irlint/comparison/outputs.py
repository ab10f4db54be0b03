"""One compared output: its verdict, its error per iteration (a concatenated output is cut into the parts
its TensorIterator/Loop iterations wrote) and the first element where the two sides part."""

from __future__ import annotations

from typing import Any

import numpy as np

from irlint.comparison.stats import beyond_tolerance, error_row, parts_along
from irlint.controlflow import CONTROL_FLOW, EntryKind, loop_plan
from irlint.ir.model import Layer, Model

Sides = tuple[str, str]
AGAINST_OPENVINO: Sides = ("ours", "openvino")  # the JSON keys of irlint's and OpenVINO's values
TWO_MODELS: Sides = ("a", "b")


def concat_source(model: Model, result_name: str, ndim: int, iterations: dict[str, int]
                  ) -> tuple[Layer, int, int, bool] | None:
    """For a Result fed by a TI/Loop's concatenated output: (the loop, axis, iterations, reversed)."""
    result = next((la for la in model.graph.results() if la.name == result_name), None)
    edge = next((e for e in model.graph.edges if result is not None and e.to_layer == result.id), None)
    src = model.graph.layer(edge.from_layer) if edge else None
    if src is None or src.type not in CONTROL_FLOW or src.path not in iterations:
        return None
    entry = loop_plan(src).output_for_port(edge.from_port)  # type: ignore[union-attr]
    n = iterations[src.path]
    if entry is None or entry.kind is not EntryKind.CONCAT_OUTPUT or entry.entry.axis is None or n <= 0:
        return None
    axis = entry.entry.axis + ndim if entry.entry.axis < 0 else entry.entry.axis
    if not 0 <= axis < ndim:
        return None
    return src, axis, n, entry.reversed


def compare_output(model: Model, name: str, got: np.ndarray | None, want: np.ndarray, rtol: float, atol: float,
                   iterations: dict[str, int], sides: Sides = AGAINST_OPENVINO) -> dict[str, Any]:
    """One output's verdict, its error per iteration and where it first differs; `sides` names the two
    values in the result ("ours"/"openvino" against OpenVINO, "a"/"b" for two models)."""
    mine, theirs = sides
    out: dict[str, Any] = {"name": name, "shape": list(want.shape)}
    if got is None or got.shape != want.shape:
        out.update(verdict="shape", **{f"{mine}_shape": None if got is None else list(got.shape)})
        return out
    if got.dtype.kind == "O" or want.dtype.kind in "USO":  # string tensors: equal bytes or not
        from irlint.ops.misc.strings import as_strings

        same = got.dtype.kind == "O" and want.dtype.kind in "USO" and bool((got == as_strings(want)).all())
        out.update(verdict="ok" if same else "differs", strings=True)
        return out
    whole = error_row("-", got, want, rtol, atol)
    out.update(verdict="ok" if not whole.beyond else "differs", max_abs=whole.max_abs, max_rel=whole.max_rel,
               max_ulp=whole.max_ulp, beyond_tolerance=whole.beyond)
    src = concat_source(model, name, got.ndim, iterations)
    rows = [whole]
    parts: list[tuple[int, np.ndarray, np.ndarray]] = []
    if src is not None:
        loop, axis, n, rev = src
        parts = parts_along(got, want, axis, n, rev)
        if parts:
            rows = [error_row(str(k), g, w, rtol, atol) for k, g, w in parts]
            out["loop"] = loop.describe()
    out["rows"] = rows
    if whole.beyond:
        first = tuple(int(i) for i in np.argwhere(beyond_tolerance(got, want, rtol, atol))[0])
        fd: dict[str, Any] = {"index": list(first), mine: float(got[first]), theirs: float(want[first])}
        if src is not None and parts:
            loop, axis, n, rev = src
            length = got.shape[axis] // n
            k = first[axis] // max(length, 1)
            fd["iteration"] = n - 1 - k if rev else k
        out["first_difference"] = fd
    return out


def describe_first(o: dict[str, Any]) -> str:
    """Where an output first differs, in words (empty when it does not)."""
    fd = o.get("first_difference")
    if not fd:
        return ""
    text = f" first difference at index {tuple(fd['index'])}"
    if "iteration" in fd:
        text += f": in the part of iteration {fd['iteration']} of {o['loop']}"
    return text
