"""Loop bodies run through generated Python code (irlint.interp.codegen): the same results and the same
errors as interpreting their op lists and as the event path, whatever the layer names, and the
memory guard where the interpreter has it (and only there)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import ExecutionError, Options, execute, run
from irlint.interp import executor as executor_module
from irlint.interp.events import RunFinished
from tests.interp.test_hoisting import cell_ti

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")
INTERPRETED = Options(generate_bodies=False)


@pytest.fixture(autouse=True)
def generate_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bodies are generated from their first execution (not after GENERATE_AFTER), so that a failure
    in the first iteration happens in generated code."""
    monkeypatch.setattr(executor_module, "GENERATE_AFTER", 0)


def saved(model, tmp_path: Path, name: str = "m") -> irlint.Model:
    path = tmp_path / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return irlint.load(path)


def event_run(model, inputs, options: Options | None = None) -> dict[str, np.ndarray]:
    for ev in execute(model, inputs, options):
        if isinstance(ev, RunFinished):
            return dict(ev.outputs)
    raise AssertionError("no RunFinished")


def loop_of(body_ops, trip: int = 3, shape=(4,)):
    """A Loop of `trip` iterations whose body maps its invariant inputs a, b through `body_ops(a, b)`
    (one output, concatenated over the iterations on a new axis 0)."""
    a = ops.parameter(list(shape), np.float32, name="a")
    b = ops.parameter(list(shape), np.float32, name="b")
    ai = ops.parameter([-1] * len(shape), np.float32)
    bi = ops.parameter([-1] * len(shape), np.float32)
    y = body_ops(ai, bi)
    ry = ops.result(ops.unsqueeze(y, ops.constant(np.array([0], np.int64))))
    cond = ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(trip)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([ry, cond], [ai, bi]))
    loop.set_special_body_ports([-1, 1])
    loop.set_invariant_input(ai, a.output(0))
    loop.set_invariant_input(bi, b.output(0))
    return ov.Model([ops.result(loop.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 0), name="y")], [a, b],
                    "loop")


def generated_sources(model, inputs, options: Options | None = None) -> list[str]:
    ex = executor_module._Executor(model, options or Options(), events=False)
    ex.start(inputs).run(())
    return [b.run.source for b in ex.bound.values() if hasattr(b.run, "source")]


def test_loop_body_is_generated_and_agrees(tmp_path: Path) -> None:
    model = saved(loop_of(lambda a, b: ops.multiply(ops.tanh(ops.add(a, b)), b)), tmp_path)
    inputs = {"a": np.linspace(-2, 2, 4, dtype=np.float32), "b": np.full(4, 0.5, np.float32)}
    sources = generated_sources(model, inputs)
    assert len(sources) == 1 and "Tanh" in sources[0] and "K0(" in sources[0]
    got = run(model, inputs)["y"]
    assert np.array_equal(got, run(model, inputs, INTERPRETED)["y"])
    assert np.array_equal(got, event_run(model, inputs)["y"])
    np.testing.assert_allclose(got[0], np.tanh(inputs["a"] + 0.5) * 0.5, rtol=1e-6)


def test_kernel_failure_in_a_generated_body_names_the_op(tmp_path: Path) -> None:
    # a [3] + b [4] inside the body: the generated code finds the failing op by its line and explains
    # it exactly as the interpreter and the event path do.
    model = saved(loop_of(lambda a, b: ops.add(a, b), shape=(-1,)), tmp_path)
    inputs = {"a": np.ones(3, np.float32), "b": np.ones(4, np.float32)}
    errors = []
    for go in (lambda: run(model, inputs), lambda: run(model, inputs, INTERPRETED),
               lambda: event_run(model, inputs)):
        with pytest.raises(ExecutionError) as info:
            go()
        errors.append((info.value.code, info.value.message, info.value.layer.path))
    assert errors[0] == errors[1] == errors[2]
    code, message, _path = errors[0]
    assert code == "RUN" and "Add" in message and "[3]" in message and "[4]" in message


def test_hostile_layer_names_do_not_reach_the_code(tmp_path: Path) -> None:
    def body(a, b):
        y = ops.add(a, b)
        y.set_friendly_name('x"""\n  raise SystemExit(3)\n#\\ \u2028 \'')
        return y

    model = saved(loop_of(body), tmp_path)
    inputs = {"a": np.ones(4, np.float32), "b": np.ones(4, np.float32)}
    (source,) = generated_sources(model, inputs)
    assert "SystemExit" in source and all(line.lstrip().startswith("#") for line in source.splitlines()
                                           if "SystemExit" in line)
    assert np.array_equal(run(model, inputs)["y"], np.full((3, 4), 2, np.float32))


@pytest.mark.parametrize("trip", [1, 2, 3, 5])
def test_bodies_are_generated_when_they_run_again(trip: int, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # The first GENERATE_AFTER executions are interpreted (compiling would cost more than a body run
    # once or twice), then the generated code takes over mid-loop with the same slots.
    monkeypatch.setattr(executor_module, "GENERATE_AFTER", 2)
    model = saved(loop_of(lambda a, b: ops.add(ops.multiply(a, b), b), trip=trip), tmp_path)
    inputs = {"a": np.arange(4, dtype=np.float32), "b": np.full(4, 2, np.float32)}
    assert len(generated_sources(model, inputs)) == (trip > 2)
    want = np.tile(inputs["a"] * 2 + 2, (trip, 1))
    assert np.array_equal(run(model, inputs)["y"], want)


def test_large_bodies_are_interpreted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = saved(loop_of(lambda a, b: ops.add(ops.multiply(a, b), b)), tmp_path)
    inputs = {"a": np.arange(4, dtype=np.float32), "b": np.full(4, 2, np.float32)}
    want = run(model, inputs)["y"]
    monkeypatch.setattr(executor_module, "MAX_GENERATED_OPS", 2)  # the body has 3 ops
    assert generated_sources(model, inputs) == []
    assert np.array_equal(run(model, inputs)["y"], want)


@pytest.mark.parametrize("where", ["dynamic", "constant", "explosive"])
def test_generated_body_keeps_the_memory_guard(where: str, tmp_path: Path) -> None:
    # 64 f32 (256 bytes) under a 200-byte budget: an Add of a body input, an Add of two constants, a
    # Tile (always checked) are each refused before they allocate, by every driver alike.
    def body(a, b):
        if where == "dynamic":
            return ops.add(a, ops.constant(np.ones(64, np.float32)))
        if where == "constant":
            return ops.add(ops.add(ops.constant(np.ones(64, np.float32)), ops.constant(np.ones(64, np.float32))), a)
        return ops.tile(a, ops.constant(np.array([64], np.int64)))

    model = saved(loop_of(body, shape=(1,) if where == "explosive" else (64,)), tmp_path)
    n = 1 if where == "explosive" else 64
    inputs = {"a": np.ones(n, np.float32), "b": np.ones(n, np.float32)}
    for options in (Options(memory_budget=200), Options(memory_budget=200, generate_bodies=False)):
        with pytest.raises(ExecutionError) as info:
            run(model, inputs, options)
        assert info.value.code == "RUN-BUDGET"
    with pytest.raises(ExecutionError) as info:
        event_run(model, inputs, Options(memory_budget=200))
    assert info.value.code == "RUN-BUDGET"
    assert run(model, inputs)["y"].shape == (3, 64)


def test_cells_are_not_guarded_however_large_their_weights(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # A cell's outputs have its state's shape: its weights (here over the size test's threshold of a
    # 1,600-byte budget) would otherwise send it through the guard every iteration.
    model, inputs = cell_ti("LSTMCell")
    model = saved(model, tmp_path)
    guarded: list[str] = []
    real = executor_module._Executor.guard

    def counting(self, instr, args):  # type: ignore[no-untyped-def]
        guarded.append(instr.layer.type)
        return real(self, instr, args)

    monkeypatch.setattr(executor_module._Executor, "guard", counting)
    want = run(model, inputs)
    for options in (Options(memory_budget=1600), Options(memory_budget=1600, generate_bodies=False)):
        got = run(model, inputs, options)
        assert all(np.array_equal(got[k], want[k]) for k in want)
    assert "LSTMCell" not in guarded


def test_a_run_leaves_no_reference_cycles(tmp_path: Path) -> None:
    # Bound bodies refer back to themselves and generated code to the executor: `close` breaks that at
    # the end of every run, so a finished run is freed at once, without the cyclic collector.
    import gc

    model = saved(loop_of(lambda a, b: ops.multiply(ops.tanh(ops.add(a, b)), b), trip=5), tmp_path)
    inputs = {"a": np.ones(4, np.float32), "b": np.ones(4, np.float32)}
    run(model, inputs)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        run(model, inputs)
        assert gc.collect() == 0
        event_run(model, inputs)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def pass_through_ti() -> object:
    """A TensorIterator whose body is one Parameter wired straight to its Result: no op to generate."""
    x = ops.parameter([3, 2], np.float32, name="X")
    bp = ops.parameter([1, 2], np.float32)
    br = ops.result(bp)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([br], [bp]))
    ti.set_sliced_input(bp, x.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(ti.get_concatenated_slices(br.output(0), 0, 1, 1, -1, 0), name="all"),
                     ops.result(ti.get_iter_value(br.output(0), -1), name="last")], [x], "pass_through")


@pytest.mark.parametrize("generate", [True, False])
def test_a_body_without_ops_runs_and_matches_the_cpu_plugin(generate: bool, tmp_path: Path) -> None:
    model = saved(pass_through_ti(), tmp_path)
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    got = run(model, {"X": x}, Options(generate_bodies=generate))
    compiled = ov.Core().compile_model(str(tmp_path / "m.xml"), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    want = compiled([x])
    assert np.array_equal(got["all"], want[0]) and np.array_equal(got["all"], x)
    assert np.array_equal(got["last"], want[1]) and np.array_equal(got["last"], x[2:])
    assert np.array_equal(event_run(model, {"X": x})["all"], x)


@pytest.mark.parametrize(("shape", "dtype"), [((4,), np.float32), ((2, 3), np.float64), ((), np.float32),
                                              ((4,), np.float16)])
def test_direct_calls_agree_with_the_kernels(shape, dtype, tmp_path: Path) -> None:
    # x * 0.5 + b through Tanh: inline numpy calls, which test their inputs and hand 0-d values to the
    # kernels; in f16 the Add keeps its watched kernel (the f16 overflow check), while the Multiply by
    # 0.5 cannot overflow and Tanh is bounded, so they are called inline too; every way gives the
    # interpreter's bits
    def body(a, b):
        half = ops.constant(np.full([1] * max(len(shape), 1), 0.5, dtype))
        return ops.tanh(ops.add(ops.multiply(a, half) if shape else ops.multiply(a, ops.constant(dtype(0.5))), b))

    def typed(fn):
        def build(a, b):
            return fn(ops.convert(a, dtype), ops.convert(b, dtype)) if dtype != np.float32 else fn(a, b)
        return build

    model = saved(loop_of(typed(body), shape=shape), tmp_path)
    inputs = {"a": np.asarray(RNG_CG.standard_normal(shape) * 3, np.float32),
              "b": np.asarray(RNG_CG.standard_normal(shape), np.float32)}
    sources = generated_sources(model, inputs)
    assert len(sources) == 1
    inline = [line for line in sources[0].splitlines() if " if x.__class__ is ND" in line]
    assert len(inline) == (2 if dtype == np.float16 else 3)
    ops_code = sources[0].split("   # ")[1:]  # each op's comment (its layer) and its code
    add = [code for code in ops_code if code.splitlines()[0].endswith("(Add)\"")]
    assert len(add) == 1 and (" = U" in add[0]) == (dtype != np.float16)
    got = run(model, inputs)["y"]
    want = run(model, inputs, INTERPRETED)["y"]
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert np.array_equal(got, event_run(model, inputs)["y"])


RNG_CG = np.random.default_rng(5)
