"""What the CPU plugin computes where PM414 warns (and where it does not), measured on the fixtures: an Add
of a scalar invariant input (input 0) and a slice is computed in place, so the invariant input accumulates."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "PM414"
S = np.array([1.0, 10.0, 100.0, 1000.0], np.float32)


def _both(path: Path, x: np.ndarray, dtype: type = np.float32) -> tuple[np.ndarray, np.ndarray]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    s = S.astype(dtype)
    cpu = np.asarray(compiled({"x": x, "s": s})["y"])
    return cpu, np.asarray(irlint.run(irlint.load(path), {"x": x, "s": s})["y"])


@pytest.mark.parametrize("name", ["fail.xml", "fail-loop.xml"])
def test_the_cpu_plugin_accumulates_where_pm414_warns(name: str) -> None:
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["PM414"]
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(ours, 0.5 + S)  # the spec: the same x every iteration
    np.testing.assert_array_equal(cpu, 0.5 + np.cumsum(S))  # 1.5, 11.5, 111.5, 1111.5


@pytest.mark.parametrize("name, shape", [("pass.xml", ()), ("pass-rank1.xml", (1,))])
def test_the_cpu_plugin_agrees_where_pm414_is_silent(name: str, shape: tuple[int, ...]) -> None:
    path = FIXTURES / name
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.full(shape, 0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 0.5 + S)


def test_the_cpu_plugin_removes_an_i64_convert_pair_and_accumulates_where_pm414_warns() -> None:
    """In i32, x reaches the Add through Converts to i64 and back: the plugin computes i64 as i32, drops the
    pair, and adds in place as without it (5 + 1, 10, 100, 1000 give 6, 16, 116, 1116)."""
    path = FIXTURES / "fail-convert.xml"
    diags = irlint.check(path)
    assert [d.code for d in diags] == ["PM414"] and "Convert" in diags[0].message
    cpu, ours = _both(path, np.array(5, np.int32), np.int32)
    np.testing.assert_array_equal(ours, 5 + S.astype(np.int32))
    np.testing.assert_array_equal(cpu, 5 + np.cumsum(S.astype(np.int32)))


def test_the_cpu_plugin_keeps_an_f32_convert_pair_where_pm414_is_silent() -> None:
    """Converts to f32 and back are not a no-op in the plugin: the Add reads the Convert's memory, not x's."""
    path = FIXTURES / "pass-convert-kept.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.array(5, np.int32), np.int32)
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 5 + S.astype(np.int32))


def test_the_cpu_plugin_adds_in_place_through_reshapes_where_pm414_warns() -> None:
    """x reaches the Add through Reshapes to [1] and back to []: the plugin computes them in x's memory and
    adds in place as without them (0.5 + 1, 10, 100, 1000 give 1.5, 11.5, 111.5, 1111.5)."""
    path = FIXTURES / "fail-reshape.xml"
    diags = irlint.check(path)
    assert [d.code for d in diags] == ["PM414"] and "Reshape" in diags[0].message
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(ours, 0.5 + S)
    np.testing.assert_array_equal(cpu, 0.5 + np.cumsum(S))


def test_the_cpu_plugin_keeps_a_rank1_invariant_squeezed_apart_where_pm414_is_silent() -> None:
    """An x of shape [1] squeezed to [] before the Add: the plugin computes what the spec says."""
    path = FIXTURES / "pass-squeeze.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.full((1,), 0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 0.5 + S)


def test_the_cpu_plugin_keeps_a_scalar_invariant_apart_from_a_reduced_slice_where_pm414_is_silent() -> None:
    """x + ReduceSum(s[k]): the Add's other input is no view of a body input, and the plugin computes what the
    spec says (a view of the slice there, as in fail.xml, makes it add in place)."""
    path = FIXTURES / "pass-reduced.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 0.5 + S)


def test_the_cpu_plugin_keeps_a_scalar_invariant_apart_from_a_slice_read_twice_where_pm414_is_silent() -> None:
    """x + Reshape(s[k]) where the body also returns Relu(s[k]): with a second reader of the slice the plugin
    computes what the spec says."""
    path = FIXTURES / "pass-slice-read-twice.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 0.5 + S)


def _view_both(path: Path, x: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    got = compiled({"x": x, "s": S})
    cpu = {name: np.asarray(got[name]) for name in ("y", "t")}
    ours = irlint.run(irlint.load(path), {"x": x, "s": S})
    return cpu, {name: np.asarray(ours[name]) for name in ("y", "t")}


@pytest.mark.parametrize("name", ["fail-view.xml", "fail-view-loop.xml"])
def test_the_cpu_plugin_adds_in_a_reshaped_invariant_read_before_where_pm414_warns(name: str) -> None:
    """Reshape(x, [2,1]) + ReduceSum(s[k]), x of shape [?], and Tanh(x) whose Result comes first: the plugin
    runs the Tanh first, so it lets the Add write over x's memory; x accumulates and the Tanh reads it."""
    path = FIXTURES / name
    diags = irlint.check(path)
    assert [d.code for d in diags] == ["PM414"] and "Tanh" in diags[0].message
    x = np.array([0.5, 0.25], np.float32)
    cpu, ours = _view_both(path, x)
    np.testing.assert_allclose(ours["y"], x[:, None] + S[None, :])  # the spec: the same x every iteration
    np.testing.assert_allclose(cpu["y"], x[:, None] + np.cumsum(S)[None, :])  # 1.5, 11.5, 111.5, 1111.5
    before = np.concatenate([x[None, :], x[None, :] + np.cumsum(S)[:3, None]])
    np.testing.assert_allclose(cpu["t"], np.tanh(before), rtol=1e-6)  # the Tanh reads the running sums
    np.testing.assert_allclose(ours["t"], np.tile(np.tanh(x), (4, 1)), rtol=1e-6)


def test_the_cpu_plugin_copies_a_reshaped_invariant_read_after_where_pm414_is_silent() -> None:
    """The same body with the Add's Result first: the Tanh runs after the Add, so the plugin copies x first
    and computes what the spec says."""
    path = FIXTURES / "pass-view-read-after.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    x = np.array([0.5, 0.25], np.float32)
    cpu, ours = _view_both(path, x)
    for name in ("y", "t"):
        np.testing.assert_allclose(cpu[name], ours[name], rtol=1e-6)
    np.testing.assert_allclose(ours["y"], x[:, None] + S[None, :])


@pytest.mark.parametrize("name", ["fail-reader-before.xml", "fail-reader-before-loop.xml"])
def test_the_cpu_plugin_adds_in_place_after_an_earlier_reader_where_pm414_warns(name: str) -> None:
    """x is also read by a Sigmoid whose Result comes first in the body: the plugin runs it before the Add,
    then adds in x's memory, so both the Add and the Sigmoid see the accumulated x from iteration 2 on."""
    path = FIXTURES / name
    diags = irlint.check(path)
    assert [d.code for d in diags] == ["PM414"] and "Sigmoid" in diags[0].message
    x = np.array(0.5, np.float32)
    cpu, ours = _both(path, x)
    np.testing.assert_array_equal(ours, 0.5 + S)
    np.testing.assert_array_equal(cpu, 0.5 + np.cumsum(S))
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    seen = np.asarray(compiled({"x": x, "s": S})["z"])  # Sigmoid of 0.5, 1.5, 11.5, 111.5
    np.testing.assert_allclose(seen, 1 / (1 + np.exp(-(0.5 + np.concatenate([[0], np.cumsum(S)[:-1]])))),
                               rtol=1e-6)


@pytest.mark.parametrize("name", ["pass-reader-after.xml", "pass-reader-view.xml"])
def test_the_cpu_plugin_keeps_x_for_a_later_reader_or_a_view_where_pm414_is_silent(name: str) -> None:
    """x also read by a Sigmoid the plugin runs after the Add, or by a Reshape (a view of x's memory read at
    the end of the iteration): the plugin computes what the spec says."""
    path = FIXTURES / name
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 0.5 + S)


def test_the_cpu_plugin_fuses_a_relu_after_the_add_and_keeps_x_where_pm414_is_silent() -> None:
    """Relu(x + s[k]): the plugin fuses the Relu into the Add's node, which does not write over x, and computes
    what the spec says (without the Relu, fail.xml, it adds in place)."""
    path = FIXTURES / "pass-fused-tail.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 0.5 + S)


def _y_and_z(path: Path) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    x = np.array(0.5, np.float32)
    got = compiled({"x": x, "s": S})
    ours = irlint.run(irlint.load(path), {"x": x, "s": S})
    return ({n: np.asarray(got[n]) for n in ("y", "z")}, {n: np.asarray(ours[n]) for n in ("y", "z")})


@pytest.mark.parametrize("name, z", [("fail-slice-view-relu.xml", lambda acc: S),
                                     ("fail-slice-view-subtract.xml", lambda acc: acc - S)])
def test_the_cpu_plugin_adds_in_place_with_the_slice_view_read_again_where_pm414_warns(name: str, z) -> None:
    """x + Reshape(s[k]) where Relu(Reshape(s[k])), or x - Reshape(s[k]) whose Result comes first, also reads
    the view: the plugin still adds in x's memory (1.5, 11.5, 111.5, 1111.5); the Subtract reads the running
    x too (-0.5, -8.5, -88.5, -888.5)."""
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["PM414"]
    cpu, ours = _y_and_z(path)
    np.testing.assert_array_equal(ours["y"], 0.5 + S)
    np.testing.assert_array_equal(cpu["y"], 0.5 + np.cumsum(S))
    before = 0.5 + np.concatenate([[0], np.cumsum(S)[:-1]])  # x as each iteration sees it in the plugin
    np.testing.assert_array_equal(cpu["z"], z(before))


def test_the_cpu_plugin_keeps_x_with_the_slice_view_multiplied_where_pm414_is_silent() -> None:
    """x + Reshape(s[k]) where Reshape(s[k]) * 2 also reads the view: the plugin computes what the spec says."""
    path = FIXTURES / "pass-slice-view-multiply.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _y_and_z(path)
    for name in ("y", "z"):
        np.testing.assert_array_equal(cpu[name], ours[name])
    np.testing.assert_array_equal(ours["y"], 0.5 + S)
    np.testing.assert_array_equal(ours["z"], 2 * S)


@pytest.mark.parametrize("name, part", [("fail-reduced-view.xml", S), ("fail-nested-loop-view.xml", np.tanh(S))])
def test_the_cpu_plugin_accumulates_with_a_view_of_a_computed_value_where_pm414_warns(name: str,
                                                                                      part: np.ndarray) -> None:
    """x + Reshape(v, []), v = ReduceSum(s[k]) kept as [1] or a nested Loop's Tanh(s[k]): no Eltwise node
    computes v, so the plugin adds in x's memory as with a view of the slice itself."""
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["PM414"]
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_allclose(ours, 0.5 + part, rtol=1e-6)
    np.testing.assert_allclose(cpu, 0.5 + np.cumsum(part), rtol=1e-6)


@pytest.mark.parametrize("name", ["pass-eltwise-view.xml", "pass-result-reader.xml"])
def test_the_cpu_plugin_agrees_with_an_eltwise_view_or_a_result_reader_where_pm414_is_silent(name: str) -> None:
    """x + Reshape(Tanh(s[k]), []) (the Tanh's node takes the Add in) and x + s[k] also read by a Result of its
    own: the plugin computes the spec's values."""
    path = FIXTURES / name
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    part = np.tanh(S) if "eltwise" in name else S
    np.testing.assert_allclose(ours, 0.5 + part, rtol=1e-6)


def test_the_cpu_plugin_adds_in_place_beside_an_if_reading_x_where_pm414_warns() -> None:
    """x + Reshape(If(x > -100, s[k] * 2, s[k] * 3), []): the Greater and the If read x and feed the Add,
    yet the plugin's If copies its inputs into its branch and its result out, and the Add still writes over
    x (2.5, 22.5, 222.5, 2222.5 where the spec gives 2.5, 20.5, 200.5, 2000.5)."""
    path = FIXTURES / "fail-if-condition.xml"
    diags = irlint.check(path)
    assert [d.code for d in diags] == ["PM414"] and "Greater" in diags[0].message
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(ours, 0.5 + 2 * S)
    np.testing.assert_array_equal(cpu, 0.5 + np.cumsum(2 * S))


def test_the_cpu_plugin_adds_in_place_when_the_if_branch_reads_x_where_pm414_warns() -> None:
    """x + Reshape(If(s[k] > -100, Reshape(x, [1]) * s[k], ...), []): each iteration's branch reads the x
    the previous Add left (1, 11, 1111, 1112111; the spec 1, 5.5, 50.5, 500.5)."""
    path = FIXTURES / "fail-if-branch.xml"
    assert [d.code for d in irlint.check(path)] == ["PM414"]
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(ours, 0.5 + 0.5 * S)
    acc, want = np.float32(0.5), []
    for s in S:
        acc = np.float32(acc + acc * s)
        want.append(acc)
    np.testing.assert_array_equal(cpu, np.array(want, np.float32))


@pytest.mark.parametrize("name", ["pass-if-value.xml", "pass-if-reader-after.xml"])
def test_the_cpu_plugin_agrees_with_an_if_value_unviewed_or_read_after_where_pm414_is_silent(name: str) -> None:
    """x + If(x > -100, ...) giving [] itself (no view between the If and the Add), or the fail-if-condition
    Add with a Sigmoid of x run after it: the plugin computes the spec's values."""
    path = FIXTURES / name
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path, np.array(0.5, np.float32))
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, 0.5 + 2 * S)


def test_the_cpu_plugin_removes_a_reshape_of_x_to_its_own_shape_where_pm414_warns() -> None:
    """x also read by Reshape(x, []) * 2 run first: OpenVINO removes the Reshape, the Multiply reads x
    itself, and the Add writes over x as with any earlier reader (z 1, 3, 23, 223; a Reshape of x to [1],
    pass-reader-view.xml, keeps the spec's values)."""
    path = FIXTURES / "fail-reader-reshape.xml"
    diags = irlint.check(path)
    assert [d.code for d in diags] == ["PM414"] and "Multiply" in diags[0].message
    cpu, ours = _y_and_z(path)
    np.testing.assert_array_equal(ours["y"], 0.5 + S)
    np.testing.assert_array_equal(cpu["y"], 0.5 + np.cumsum(S))
    before = 0.5 + np.concatenate([[0], np.cumsum(S)[:-1]])
    np.testing.assert_array_equal(cpu["z"], 2 * before)


def _invariant_both(path: Path) -> tuple[np.ndarray, np.ndarray]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    feed = {"x": np.array(5, np.int32), "p": np.array([1], np.int32), "s": np.array([10, 20, 30, 40], np.int32)}
    cpu = np.asarray(compiled(feed)["y"]).reshape(4, -1)[:, 0]
    return cpu, np.asarray(irlint.run(irlint.load(path), feed)["y"]).reshape(4, -1)[:, 0]


@pytest.mark.parametrize("name", ["fail-dynamic-invariant.xml", "fail-dynamic-invariant-loop.xml",
                                  "fail-invariant-result.xml"])
def test_the_cpu_plugin_adds_a_view_of_an_invariant_read_elsewhere_in_place_where_pm414_warns(name: str) -> None:
    """x + Reshape(p, []), p an invariant input also read by the body's Concat with p's shape [?], or by a
    Result with p's shape [1]: the plugin adds in x's memory (5 + 1 gives 6, 7, 8, 9; the spec 6 each time)."""
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["PM414"]
    cpu, ours = _invariant_both(path)
    np.testing.assert_array_equal(ours, [6, 6, 6, 6])
    np.testing.assert_array_equal(cpu, [6, 7, 8, 9])


def test_the_cpu_plugin_keeps_x_apart_from_a_static_invariant_read_elsewhere_where_pm414_is_silent() -> None:
    """The same with p of shape [1] read by the Concat: the plugin computes the spec's values."""
    path = FIXTURES / "pass-static-invariant.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _invariant_both(path)
    np.testing.assert_array_equal(cpu, ours)
    np.testing.assert_array_equal(ours, [6, 6, 6, 6])


A = np.array([0.17, 0.27, 0.5], np.float32)
B = np.array([0.9, -0.47, 0.3], np.float32)


def _fused(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The CPU plugin's y, irlint's y, and y as computed when x holds the previous iteration's y (in place)."""
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    x = np.float32(0.01)
    inputs = {"x": x, "a": A, "b": B}
    return (np.asarray(compiled(inputs)["y"]).ravel(), np.asarray(irlint.run(irlint.load(path), inputs)["y"]).ravel(),
            x)


REDUCERS = {"add": np.add, "multiply": np.multiply, "maximum": np.maximum, "minimum": np.minimum,
            "subtract-second": lambda u, v: v - u}


@pytest.mark.parametrize("reader", sorted(REDUCERS))
def test_the_cpu_plugin_computes_a_fused_reader_of_two_slices_in_x_where_pm414_warns(reader: str) -> None:
    """x + a[k], read by an op of b[k] that the plugin fuses into the Add's node: the node writes y's value
    into x, so iteration k reads y[k-1] as x (y = Sigmoid of the chain)."""
    path = FIXTURES / f"fail-fused-{reader}.xml"
    diags = irlint.check(path)
    assert [d.code for d in diags] == ["PM414"] and "the plugin computes in the same node" in diags[0].message
    cpu, ours, x = _fused(path)
    op = REDUCERS[reader]
    spec = 1 / (1 + np.exp(-op(x + A, B)))
    np.testing.assert_allclose(ours, spec, rtol=1e-6)
    in_place, prev = [], x
    for k in range(3):
        prev = 1 / (1 + np.exp(-op(prev + A[k], B[k])))
        in_place.append(prev)
    np.testing.assert_allclose(cpu, in_place, rtol=1e-5)


@pytest.mark.parametrize("reader", ["subtract", "divide", "relu-operand"])
def test_the_cpu_plugin_keeps_x_when_the_reader_takes_no_plain_slice_view_where_pm414_is_silent(reader: str) -> None:
    """(x + a[k]) - b[k] and / b[k] become an Add or Multiply of a Multiply(b, -1) or Power(b, -1) node,
    Relu(b[k]) is no view of a slice: the plugin computes the spec's values."""
    path = FIXTURES / f"pass-fused-{reader}.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours, _ = _fused(path)
    np.testing.assert_allclose(cpu, ours, rtol=1e-6)


S3 = np.array([0.5, 1.0, 2.0], np.float32)


def _two_readers(path: Path) -> tuple[np.ndarray, np.ndarray]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    inputs = {"x": np.float32(0.3), "s": S3}
    return np.asarray(compiled(inputs)["y"]).ravel(), np.asarray(irlint.run(irlint.load(path), inputs)["y"]).ravel()


def _sigmoid(v: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-v))


def test_the_cpu_plugin_computes_in_x_once_openvino_merges_two_identical_chains_where_pm414_warns() -> None:
    """Two identical chains x + Reshape(s[k], []) are one after OpenVINO merges them (SharedOpOptimization):
    x has one reader, and holds x + s[k-1] (the Add's value) from the second iteration on."""
    path = FIXTURES / "fail-shared-chains.xml"
    assert [d.code for d in irlint.check(path)] == ["PM414"]
    cpu, ours = _two_readers(path)
    np.testing.assert_allclose(ours, _sigmoid(0.3 + S3), rtol=1e-6)
    np.testing.assert_allclose(cpu, _sigmoid(0.3 + np.cumsum(S3)), rtol=1e-5)


def test_the_cpu_plugin_keeps_x_for_two_different_readers_where_pm414_is_silent() -> None:
    path = FIXTURES / "pass-two-chains.xml"
    assert "PM414" not in {d.code for d in irlint.check(path)}
    cpu, ours = _two_readers(path)
    np.testing.assert_allclose(cpu, ours, rtol=1e-6)
