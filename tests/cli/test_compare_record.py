"""What `compare --inside` and the two-IR mode record of irlint's run is what `run --trace-all` records."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.comparison.inside import walk
from irlint.comparison.record import Recorder
from irlint.interp import run
from irlint.interp.trace import Trace

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["lstm_ti", "loop_scan", "nested_loop_in_ti", "if_in_loop"])
def test_recorded_values_are_the_traces(name: str) -> None:
    model = irlint.load(EXAMPLES / f"{name}.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / f"{name}.npz"))
    wanted = {la.path: i for i, (la, _c, _b, _g) in enumerate(walk(model.graph))}
    rec = Recorder(wanted, 1 << 30)
    trace = Trace(trace_all=True)
    run(model, inputs, listener=rec)
    run(model, inputs, listener=trace)
    values = trace.values
    checked = 0
    for path, by_it in rec.values.items():
        for its, outs in by_it.items():
            layer = rec.layer_of[path]
            for port, value in zip(layer.outputs, outs):
                frames_part = "@" + ".".join(map(str, its)) if its else ""
                want = values[f"{path}{frames_part}:out{port.id}"]
                assert np.array_equal(value, want), (path, its, port.id)
                checked += 1
    assert checked == sum(1 for k in values if ":out" in k and not k.endswith(":out"))


def test_layers_are_dropped_whole_the_fastest_growing_first() -> None:
    """Past the budget, the layer whose values grow fastest goes (of equals the least wanted), so more layers
    are kept than the longest run of them in priority order that fits."""
    model = irlint.load(EXAMPLES / "loop_scan.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "loop_scan.npz"))
    order = [la.path for la, chain, _b, _g in walk(model.graph) if chain and la.type not in ("Parameter", "Const")]
    rec = Recorder({p: i for i, p in enumerate(order)}, 200)  # room for a few small tensors over 4 iterations
    run(model, inputs, listener=rec)
    kept = list(rec.values)
    assert kept and rec.dropped and rec.kept <= 200
    assert all(len(rec.values[p]) == 4 for p in kept)
    biggest_kept = max(rec.needed[p] for p in kept)
    assert all(rec.needed[p] >= biggest_kept for p in rec.dropped)
    prefix, total = 0, 0
    for p in order:
        total += rec.needed.get(p, 0)
        if total > 200:
            break
        prefix += 1
    assert len(kept) > prefix  # a prefix of the layers (kept in order until one does not fit) keeps fewer
    assert rec.top_iterations == {"4": 4}
