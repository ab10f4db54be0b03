"""`irlint run`, `trace` and `compare` on the examples: outputs, exit codes, refusal of broken models."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=120)


def test_run_writes_outputs_keyed_by_result_name(tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    trace = tmp_path / "trace.npz"
    res = cli("run", str(EXAMPLES / "lstm_ti.xml"), "--inputs", str(EXAMPLES / "inputs" / "lstm_ti.npz"),
              "-o", str(out), "--trace", str(trace))
    assert res.returncode == 0, res.stderr
    with np.load(out) as z:
        assert sorted(z.files) == ["C", "H", "Y"] and z["Y"].shape == (1, 5, 4)
    assert trace.exists() and "Y" in res.stdout


def test_run_random_inputs_are_announced() -> None:
    res = cli("run", str(EXAMPLES / "loop_scan.xml"), "--random-inputs", "--seed", "3")
    assert res.returncode == 0 and "RANDOM input 'x'" in res.stderr and "seed 3" in res.stderr
    assert "RANDOM inputs" in res.stdout


def test_run_refuses_a_model_with_errors() -> None:
    res = cli("run", str(EXAMPLES / "broken" / "lstm_ti_broken.xml"))
    assert res.returncode == 1 and "PM401" in res.stderr and "Traceback" not in res.stderr


def test_run_bad_inputs(tmp_path: Path) -> None:
    bad = tmp_path / "x.npy"
    np.save(bad, np.zeros((2, 2), np.float32))
    res = cli("run", str(EXAMPLES / "loop_scan.xml"), f"x={bad}")  # RUN-INPUT: the run stops cleanly (exit 1)
    assert res.returncode == 1 and "RUN-INPUT" in res.stderr and "shape" in res.stderr
    assert "Traceback" not in res.stderr
    res = cli("run", str(EXAMPLES / "loop_scan.xml"), f"nope={bad}")
    assert res.returncode == 2 and "match no Parameter" in res.stderr


def test_trace_prints_a_row_per_iteration() -> None:
    res = cli("trace", str(EXAMPLES / "loop_scan.xml"), "--inputs", str(EXAMPLES / "inputs" / "loop_scan.npz"),
              "--watch", "acc_next", "--values")
    rows = [line for line in res.stdout.splitlines() if line.startswith("acc_next")]
    assert res.returncode == 0 and len(rows) == 4 and "[10.   5.  20.   2.5]" in rows[-1]


@pytest.mark.parametrize(("name", "watch"), [
    ("loop_scan", ["4/body/1", "x_body", "i"]),  # the back-edge state, a sliced input, the iteration counter
    ("if_in_loop", ["then_x", "4/body/7/else_body/0", "4/body/1"]),  # in the If's branches, in the Loop
    ("nested_loop_in_ti", None),  # every body Parameter, at both depths
])
def test_trace_watches_body_parameters_per_iteration(tmp_path: Path, name: str, watch: list[str] | None) -> None:
    """A body Parameter is not evaluated (its value comes with the iteration): `trace --watch` shows it per
    iteration, the values `run --trace` records as `PATH@ITERATIONS:in`."""
    import re

    from irlint.ir import load

    xml, inputs = EXAMPLES / f"{name}.xml", EXAMPLES / "inputs" / f"{name}.npz"
    model = load(xml)
    params = {la.path: la for g, la in model.layers() if la.type == "Parameter" and g is not model.graph}
    if watch is None:
        watch = sorted(params)
    trace = tmp_path / "t.npz"
    assert cli("run", str(xml), "--inputs", str(inputs), "--trace", str(trace)).returncode == 0
    res = cli("trace", str(xml), "--inputs", str(inputs), "--watch", *watch, "--values")
    assert res.returncode == 0, res.stderr
    rows = [re.match(r"(\S+)\s+(\S+)\s+\S+\s+(\[[^]]*\])\s+\[(.*)\]$", line) for line in res.stdout.splitlines()[1:]]
    assert rows and all(rows), res.stdout
    by_name = {la.name: path for path, la in params.items()}
    from irlint.interp.trace import load_trace

    z, _ = load_trace(trace)
    want = {k for k in z if k.split("@")[0] in {by_name.get(w, w) for w in watch} and k.endswith(":in")}
    got = set()
    for m in rows:
        path = by_name[m.group(1)]
        its = m.group(2).replace(".then", ".0").replace(".else", ".0")  # an If's frame is iteration 0
        key = f"{path}@{its}:in"
        assert key in z, key
        assert np.allclose(np.array(m.group(4).split(), float), z[key].reshape(-1), rtol=1e-4, atol=1e-5), key
        got.add(key)
    assert got == want and len(got) >= 6


def test_trace_says_when_a_watched_layer_gave_no_row() -> None:
    """An empty table is not silent: a layer in an If branch that was not taken (in the iterations asked
    for) gets a note on stderr; one that ran gets none."""
    args = ["trace", str(EXAMPLES / "if_in_loop.xml"), "--inputs", str(EXAMPLES / "inputs" / "if_in_loop.npz")]
    res = cli(*args, "--watch", "then_x", "4/body/1", "--iterations", "1:2")  # iteration 1 takes the else branch
    assert res.returncode == 0 and "h_in" in res.stdout and "then_x" not in res.stdout
    assert res.stderr.strip() == "note: then_x was not evaluated in --iterations 1:2 (it is in a body that ran no " \
                                 "iteration there, or in an If branch that was not taken)"
    res = cli(*args, "--watch", "then_x")
    assert res.returncode == 0 and "then_x" in res.stdout and res.stderr == ""


def test_compare_agrees_with_openvino() -> None:
    res = cli("compare", str(EXAMPLES / "lstm_ti.xml"), "--inputs", str(EXAMPLES / "inputs" / "lstm_ti.npz"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count(" ok") == 3


def test_compare_points_at_the_cpu_plugins_sub_range_bug(tmp_path: Path) -> None:
    import openvino as ov

    from tests.rules.valid_irs import _ti_tanh

    path = tmp_path / "sub.xml"
    ov.save_model(_ti_tanh([1, 4, 1], 1, 1, 1, 1, -1, 1), str(path), compress_to_fp16=False)
    res = cli("compare", str(path), "--random-inputs")
    assert res.returncode == 1 and "DIFFERS" in res.stdout and "iteration 0" in res.stdout


@pytest.mark.parametrize("trace_all", [False, True])
@pytest.mark.parametrize("name", ["loop_scan", "lstm_ti", "nested_loop_in_ti"])
def test_run_trace_file_equals_the_event_path_trace(tmp_path: Path, name: str, trace_all: bool) -> None:
    """`irlint run --trace` records through the plain driver's listener hooks; the file must hold
    exactly what observing the event stream records."""
    import irlint
    from irlint.interp import execute
    from irlint.interp.trace import Trace, load_trace

    xml = EXAMPLES / f"{name}.xml"
    npz = EXAMPLES / "inputs" / f"{name}.npz"
    path = tmp_path / "t.npz"
    args = ["run", str(xml), "--inputs", str(npz), "--trace", str(path)] + (["--trace-all"] if trace_all else [])
    res = cli(*args)
    assert res.returncode == 0, res.stderr
    got, _ = load_trace(path)
    want = Trace(trace_all=trace_all)
    for _ev in want.observe(execute(irlint.load(xml), dict(np.load(npz)))):
        pass
    assert list(got) == list(want.values)
    for key, value in want.values.items():
        assert np.array_equal(got[key], value) and got[key].dtype == value.dtype, key


@pytest.mark.parametrize("name", ["loop_scan", "nested_loop_in_ti"])
def test_progress_line_hands_the_trace_every_record(name: str) -> None:
    """On a terminal `irlint run --trace` listens through the progress line, which passes each record
    (in batches of iterations where the driver makes them) on to the trace unchanged."""
    import irlint
    from irlint.cli.run_cmd import _Progress
    from irlint.interp import execute, run
    from irlint.interp.trace import Trace

    class Counting(Trace):
        handed = 0

        def batches(self, *args):  # type: ignore[no-untyped-def]
            take = super().batches(*args)

            def counted(*batch):  # type: ignore[no-untyped-def]
                self.handed += 1
                return take(*batch)
            return counted

    model = irlint.load(EXAMPLES / f"{name}.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / f"{name}.npz"))
    got, want = Counting(), Trace()
    progress = _Progress(got)
    run(model, inputs, listener=progress)
    for _ev in want.observe(execute(model, inputs)):
        pass
    names = want.keys()
    assert got.keys() == names and progress.top and got.handed > 0
    for key in names:
        assert np.array_equal(got.get(key), want.get(key)), key


def test_progress_line_keeps_batches_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """The progress line asks for batches that take about BATCH_SECONDS at the last batch's pace, so a
    slow loop's line is not left behind by a batch of a thousand iterations."""
    from types import SimpleNamespace

    from irlint.cli import run_cmd
    from irlint.interp.events import FRESH
    from irlint.interp.trace import Trace

    clock = [100.0]
    monkeypatch.setattr(run_cmd.time, "monotonic", lambda: clock[0])
    loop = SimpleNamespace(path="3", describe=lambda: "Loop '3'")
    progress = run_cmd._Progress(Trace())
    clock[0] += 10 * run_cmd.BATCH_SECONDS  # ten iterations took ten batch times
    ten = [np.zeros(1, np.float32)] * 10  # ten iterations of one tensor each
    take = progress.batches(loop, ((), (0,)), (FRESH,))
    assert take(0, ten, ()) == 1
    assert progress.top["3"] == (loop, 10)
    clock[0] += run_cmd.BATCH_SECONDS / 1000  # ten more, ten thousand times as fast: the trace's cap
    assert take(10, ten, ()) == 1024
    # Without a trace nothing counts what a batch keeps alive: one iteration at a time.
    alone = run_cmd._Progress(None)
    clock[0] += run_cmd.BATCH_SECONDS / 100
    assert alone.batches(loop, ((), (0,)), (FRESH,))(0, ten, ()) == 1 and alone.top["3"] == (loop, 10)


def test_run_says_where_the_cpu_plugin_departs_and_still_runs(tmp_path: Path) -> None:
    # LP710's fixture: an output no back edge feeds, after zero iterations (trip count 0 from a Parameter)
    model = Path(__file__).resolve().parents[1] / "rules" / "fixtures" / "LP710" / "fail.xml"
    np.save(tmp_path / "x.npy", np.array([1, 2, 3], np.float32))
    np.save(tmp_path / "trip.npy", np.int64(0))
    res = cli("run", str(model), f"x={tmp_path / 'x.npy'}", f"trip={tmp_path / 'trip.npy'}")
    assert res.returncode == 0, res.stderr
    assert "warning: " in res.stderr and "uninitialised memory" in res.stderr and "Traceback" not in res.stderr
    assert "DepartureWarning" not in res.stderr
