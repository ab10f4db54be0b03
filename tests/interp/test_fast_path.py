"""The plain driver (`run`, no events) against the event generator (`execute`), and prepared kernels
against the checked `compute`: bit-identical outputs and identical traces on every example and every
valid TensorIterator/Loop model, plus the cases only the plain driver's loop code has (buffers that
grow, parts that change shape, reversed concatenation, a failing kernel explained by `compute`)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import ExecutionError, Options, execute, run
from irlint.interp.events import RunFinished
from irlint.interp.trace import DEFAULT_BUDGET, Trace, load_trace, stats
from tests.interp.test_conformance import random_inputs
from tests.rules.valid_irs import ALL, ONNX

ov = pytest.importorskip("openvino")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def assert_identical(got: dict[str, np.ndarray], want: dict[str, np.ndarray], what: str) -> None:
    assert list(got) == list(want), what
    for name, w in want.items():
        g = got[name]
        assert type(g) is type(w) or isinstance(g, np.ndarray), f"{what} {name}"
        assert g.dtype == w.dtype and g.shape == w.shape, f"{what} {name}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        assert np.array_equal(g, w, equal_nan=g.dtype.kind in "fc"), f"{what} {name}"


def event_outputs(model, inputs, options: Options | None = None, trace: Trace | None = None) -> dict[str, np.ndarray]:
    events = execute(model, inputs, options)
    if trace is not None:
        events = trace.observe(events)
    out: dict[str, np.ndarray] = {}
    for ev in events:
        if isinstance(ev, RunFinished):
            out = dict(ev.outputs)
    return out


def trace_items(trace: Trace) -> dict[str, np.ndarray]:
    names = trace.keys()  # a list, in recording order
    return {k: trace.get(k) for k in names}


def check_paths(model, inputs) -> None:
    """Plain vs events, fast vs checked kernels, listener trace vs observed trace (also every layer)."""
    want = event_outputs(model, inputs, Options(checked_kernels=True))
    assert want, "the model has outputs"
    assert_identical(run(model, inputs), want, "plain driver")
    assert_identical(run(model, inputs, Options(generate_bodies=False)), want, "plain driver, bodies interpreted")
    assert_identical(event_outputs(model, inputs), want, "event driver")
    for trace_all in (False, True):
        heard, seen = Trace(trace_all=trace_all), Trace(trace_all=trace_all)
        assert_identical(run(model, inputs, listener=heard), want, "plain driver with a listener")
        event_outputs(model, inputs, trace=seen)
        assert list(heard.keys()) == list(seen.keys()) and heard.in_memory == seen.in_memory
        assert_identical(trace_items(heard), trace_items(seen), f"trace (trace_all={trace_all})")
        check_saved(model, inputs, trace_items(seen), trace_all)


def check_saved(model, inputs, want: dict[str, np.ndarray], trace_all: bool) -> None:
    """A saved trace (stacked series, format 2) reads back as exactly the recorded keys, values and
    `stats` of each value; also with a budget so small that some tensors spill and are saved alone."""
    budgets = [DEFAULT_BUDGET]
    total = sum(v.nbytes for v in want.values())
    if total > 8:
        budgets.append(total // 2)
    for budget in budgets:
        fresh, seen = Trace(budget=budget, trace_all=trace_all), Trace(budget=budget, trace_all=trace_all)
        run(model, inputs, listener=fresh)
        event_outputs(model, inputs, trace=seen)  # two records per iteration: the same spilling
        assert fresh.count() == len(want) and set(fresh.spilled) == set(seen.spilled)
        assert fresh.in_memory == seen.in_memory
        seen.close()
        with tempfile.TemporaryDirectory() as tmp:
            fresh.save(Path(tmp) / "t.npz")
            values, info = load_trace(Path(tmp) / "t.npz")
        assert_identical(values, want, f"saved trace (trace_all={trace_all}, budget={budget})")
        assert list(info) == list(want)
        for k, v in want.items():
            expect = {**stats(v), **({"spilled": True} if k in fresh.spilled else {})}
            assert info[k] == expect, (k, info[k], expect)
        assert (budget == DEFAULT_BUDGET) == (not fresh.spilled)
        fresh.close()


def saved(model, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.xml")))
def test_examples_identical(name: str) -> None:
    inputs = dict(np.load(EXAMPLES / "inputs" / f"{name}.npz"))
    check_paths(irlint.load(EXAMPLES / f"{name}.xml"), inputs)


@pytest.mark.parametrize("name", sorted(ALL))
def test_valid_models_identical(name: str, tmp_path: Path) -> None:
    model = ALL[name]()
    check_paths(irlint.load(saved(model, tmp_path, name)), random_inputs(model))


@pytest.mark.parametrize("name", sorted(ONNX))
def test_onnx_models_identical(name: str, tmp_path: Path) -> None:
    model = ONNX[name](tmp_path)
    check_paths(irlint.load(saved(model, tmp_path, name)), random_inputs(model))


def _counting_loop(trip: int, stop_at: float, *, reverse_ti: bool = False):
    """acc += x per iteration with a scan of acc (axis 1) until sum(acc) >= stop_at, at most `trip`;
    with reverse_ti a TensorIterator instead, whose scan output is concatenated in reverse."""
    import openvino.opset13 as ops

    x = ops.parameter([2], np.float32, name="x")
    acc = ops.parameter([2], np.float32)
    xb = ops.parameter([2], np.float32)
    nxt = ops.add(acc, xb)
    r = ops.result(nxt)
    scan = ops.result(ops.unsqueeze(nxt, ops.constant(np.array([1], np.int64))))
    if reverse_ti:
        xs = ops.parameter([trip, 2], np.float32, name="xs")
        xi = ops.parameter([1, 2], np.float32)
        flat = ops.reshape(xi, ops.constant(np.array([2], np.int64)), False)
        nxt = ops.add(acc, flat)
        r = ops.result(nxt)
        scan = ops.result(ops.unsqueeze(nxt, ops.constant(np.array([1], np.int64))))
        ti = ops.tensor_iterator()
        ti.set_body(ov.Model([r, scan], [xi, acc]))
        ti.set_sliced_input(xi, xs.output(0), 0, 1, 1, -1, 0)
        ti.set_merged_input(acc, ops.constant(np.zeros(2, np.float32)).output(0), r.output(0))
        return ov.Model([ops.result(ti.get_iter_value(r.output(0), -1), name="acc"),
                         ops.result(ti.get_concatenated_slices(scan.output(0), -1, -1, 1, 0, 1), name="scan")],
                        [xs], "reverse_scan")
    cond = ops.result(ops.less(ops.reduce_sum(nxt, ops.constant(np.array([0], np.int64)), False),
                               ops.constant(np.float32(stop_at))))
    loop = ops.loop(ops.constant(np.int64(trip)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, cond, scan], [acc, xb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, ops.constant(np.zeros(2, np.float32)).output(0), r.output(0))
    loop.set_invariant_input(xb, x.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="acc"),
                     ops.result(loop.get_concatenated_slices(scan.output(0), 0, 1, 1, -1, 1), name="scan")],
                    [x], "counting_loop")


@pytest.mark.parametrize("stop_at", [1.5, 100.0, 1e9])
def test_loop_scan_buffer_grows_and_trims(stop_at: float, tmp_path: Path) -> None:
    # A Loop's count is unknown before it runs: its scan buffer starts at 64 parts and doubles (here up to
    # the trip count 200), then keeps only the iterations that ran (2, 100, 200).
    model = irlint.load(saved(_counting_loop(200, stop_at), tmp_path, "count"))
    x = np.array([0.5, 0.5], np.float32)
    out = run(model, {"x": x})
    n = min(200, int(np.ceil(stop_at)))
    expect = np.cumsum(np.tile(x, (n, 1)), axis=0, dtype=np.float32).T
    np.testing.assert_array_equal(out["scan"], expect)
    assert out["scan"].flags.c_contiguous
    check_paths(model, {"x": x})


def test_reversed_concatenation(tmp_path: Path) -> None:
    # stride -1 on the output: iteration k's part lands in block n-1-k, as Concat(S[n-1], ..., S[0]).
    model = irlint.load(saved(_counting_loop(5, 0, reverse_ti=True), tmp_path, "rev"))
    xs = np.arange(10, dtype=np.float32).reshape(5, 2)
    out = run(model, {"xs": xs})
    np.testing.assert_array_equal(out["scan"], np.cumsum(xs, axis=0)[::-1].T)
    check_paths(model, {"xs": xs})


def test_scan_of_growing_parts_falls_back_to_concatenation(tmp_path: Path) -> None:
    # The scan output's parts grow by one element per iteration: they cannot share one buffer, so
    # they are collected and concatenated as before.
    import openvino.opset13 as ops

    x = ops.parameter([1], np.float32, name="x")
    acc = ops.parameter([-1], np.float32)
    xb = ops.parameter([1], np.float32)
    grown = ops.concat([acc, xb], 0)
    r = ops.result(grown)
    c = ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(4)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c], [acc, xb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, ops.constant(np.zeros(1, np.float32)).output(0), r.output(0))
    loop.set_invariant_input(xb, x.output(0))
    m = ov.Model([ops.result(loop.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0), name="all")], [x], "grow")
    model = irlint.load(saved(m, tmp_path, "grow"))
    out = run(model, {"x": np.ones(1, np.float32)})
    np.testing.assert_array_equal(out["all"], np.concatenate([np.r_[0.0, [1.0] * k] for k in range(1, 5)]))
    check_paths(model, {"x": np.ones(1, np.float32)})


def test_scan_buffer_respects_the_memory_budget(tmp_path: Path) -> None:
    model = irlint.load(saved(_counting_loop(200, 1e9), tmp_path, "count"))
    x = np.ones(2, np.float32)
    # 200 parts of 8 bytes: 1,600 bytes in all. A 1,000-byte budget refuses the scan at the part that
    # would pass it, a 2,000-byte budget lets the buffer grow past 64 parts without refusing.
    with pytest.raises(ExecutionError, match="memory budget of 1000 bytes") as info:
        run(model, {"x": x}, Options(memory_budget=1000))
    assert info.value.code == "RUN-BUDGET"
    assert run(model, {"x": x}, Options(memory_budget=2000))["scan"].shape == (2, 200)


def test_a_failing_loop_is_traced_up_to_its_failure(tmp_path: Path) -> None:
    # The plain driver hands the trace its iterations in batches: those that ran before the loop failed
    # (here: it passed max_iterations) are recorded as the event path records them.
    model = irlint.load(saved(_counting_loop(200, 1e9), tmp_path, "count"))
    inputs = {"x": np.ones(2, np.float32)}
    heard, seen = Trace(), Trace()
    with pytest.raises(ExecutionError, match="50"):
        run(model, inputs, Options(max_iterations=50), listener=heard)
    with pytest.raises(ExecutionError, match="50"):
        event_outputs(model, inputs, Options(max_iterations=50), trace=seen)
    names = heard.keys()
    assert names == seen.keys() and any("@49:" in k for k in names)
    assert_identical(trace_items(heard), trace_items(seen), "trace of a failing loop")


def test_failing_kernel_is_explained_by_compute(tmp_path: Path) -> None:
    import openvino.opset13 as ops

    a = ops.parameter([-1], np.float32, name="a")
    b = ops.parameter([-1], np.float32, name="b")
    model = irlint.load(saved(ov.Model([ops.result(ops.add(a, b), name="y")], [a, b], "add"), tmp_path, "add"))
    inputs = {"a": np.ones(3, np.float32), "b": np.ones(4, np.float32)}
    for go in (lambda: run(model, inputs), lambda: event_outputs(model, inputs)):
        with pytest.raises(ExecutionError) as info:
            go()
        assert info.value.code == "RUN" and "Add" in info.value.message and "[3]" in info.value.message


def _same_bits(got, want) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, np.ndarray) and g.dtype == w.dtype and g.shape == w.shape
        assert np.array_equal(g, w, equal_nan=True)


ELEMENTWISE_VALUES = np.array([-1e4, -800.0, -30.0, -1.5, -0.0, 0.0, 1e-8, 0.5, 2.0, 88.0, 1e4,
                               np.inf, -np.inf, np.nan])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int64])
def test_prepared_elementwise_kernels_give_compute_bits(dtype) -> None:
    from irlint.interp.schedule import STRUCTURAL  # noqa: F401 - the ops registry is loaded with the interpreter
    from irlint.ops import lookup
    from irlint.ops.math.elementwise import ARITHMETIC, COMPARISON, UNARY

    values = ELEMENTWISE_VALUES if np.dtype(dtype).kind == "f" else np.array([-7, -1, 0, 1, 3, 100])
    x = values.astype(dtype)
    shapes = [(x, x[::-1].copy()), (x.reshape(-1, 1)[:4], x[:3]), (np.asarray(x[3]), np.asarray(x[4]))]  # 0-d last
    checked = 0
    with np.errstate(all="ignore"):
        for name in UNARY:
            op = lookup(name, "opset5")
            kernel = op.prepare(op.Attrs(), [None])
            for a, _b in shapes:
                _same_bits(kernel([a]), op.compute(op.Attrs(), [a]))
                checked += 1
        for name in (*ARITHMETIC, *COMPARISON, "Divide"):
            op = lookup(name, "opset1")
            attrs = op.Attrs()
            kernel = op.prepare(attrs, [None, None])
            for a, b in shapes:
                _same_bits(kernel([a, b]), op.compute(attrs, [a, b]))
                checked += 1
    assert checked > 3 * len(UNARY)


def test_corpus_onnx_models_identical(tmp_path: Path) -> None:
    """The corpus's converted ONNX models (Loop, nested Loop, Scan, If, dynamic ranks ...): the same
    bits from both drivers and both kernel paths, or the same refusal from both."""
    from tests.corpus.onnx_models import ONNX_MODELS, to_ir

    ran = 0
    for name in sorted(ONNX_MODELS):
        path = to_ir(ONNX_MODELS[name](), tmp_path, name)
        model = irlint.load(path)
        inputs = random_inputs(ov.Core().read_model(str(path)))
        try:
            event_outputs(model, inputs, Options(checked_kernels=True))
        except ExecutionError as refused:
            with pytest.raises(ExecutionError) as plain:
                run(model, inputs)
            assert plain.value.message == refused.message, name
            continue
        check_paths(model, inputs)
        ran += 1
    assert ran >= 5


def _if_cases() -> dict[str, tuple[object, dict[str, np.ndarray]]]:
    from tests import ifmodels

    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    return {
        **{f"simple_if-{c}": (ifmodels.simple_if, {"cond": np.bool_(c), "x": x, "y": x * 3}) for c in (True, False)},
        **{f"dynamic_if-{c}": (ifmodels.dynamic_if, {"cond": np.bool_(c), "x": x}) for c in (True, False)},
        "if_in_loop": (ifmodels.if_in_loop, {"x": x[:1], "h0": x[1:]}),
        **{f"loop_in_if-{c}": (ifmodels.loop_in_if, {"cond": np.bool_(c), "x": x[:, :2]}) for c in (True, False)},
    }


@pytest.mark.parametrize("name", sorted(_if_cases()))
def test_if_models_identical(name: str, tmp_path: Path) -> None:
    build, inputs = _if_cases()[name]
    check_paths(irlint.load(saved(build(), tmp_path, name)), inputs)  # type: ignore[operator]
