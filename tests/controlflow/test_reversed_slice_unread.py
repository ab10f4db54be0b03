"""A TensorIterator slice start 0, end -1, stride -1 runs against its stride. OpenVINO's CPU plugin
refuses it (at compile, or at inference on an axis of dynamic length) wherever its value is used: at
the top level, in an If branch, in a Loop body. Where the body Parameter is read only on the way to an
output nothing reads, OpenVINO removes that output, its body Result, the Parameter and the entry before
the plugin checks the range, and runs the model; SL603's message says so. Measured against the CPU plugin."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irlint.api import check

ov = pytest.importorskip("openvino")
CPU = {"INFERENCE_PRECISION_HINT": "f32"}
REFUSED = r'Invalid "start","stride","end" values in an iteration component: "start" = 0, "stride" = -1, "end" = -1'


def _ti(x, y, part: int, b: str):
    """Outputs a = 2 * each element of x (concatenated) and, unless `b` is "none", b = the last slice of y
    plus 10; the body Result computing b stays in the body either way."""
    import openvino.opset13 as ops

    xi, yi = ops.parameter([1], np.float32), ops.parameter([part], np.float32)
    ra = ops.result(ops.multiply(xi, ops.constant(np.float32(2))))
    rb = ops.result(ops.add(yi, ops.constant(np.float32(10))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ra, rb], [xi, yi]))
    ti.set_sliced_input(xi, x, 0, 1, 1, -1, 0)
    ti.set_sliced_input(yi, y, 0, -1, part, -1, 0)
    return [ti.get_concatenated_slices(ra.output(0), 0, 1, 1, -1, 0)] + (
        [ti.get_iter_value(rb.output(0), -1)] if b != "none" else [])


def _model(where: str, rows: int, part: int, b: str, dynamic: bool = False):
    """The TensorIterator at the top level, in an If's then branch or in a Loop body, its output b read
    ("read"), left unread ("unread") or absent ("none"); x has rows // part elements, so both slicings
    give the same count where the plugin accepts them."""
    import openvino.opset13 as ops

    n = rows // part
    dims = ([-1], [-1]) if dynamic else ([n], [rows])
    x, y = ops.parameter(dims[0], np.float32, name="x"), ops.parameter(dims[1], np.float32, name="y")
    if where == "top":
        return ov.Model([ops.result(o) for o in _ti(x.output(0), y.output(0), part, b)[:2 if b == "read" else 1]],
                        [x, y])
    bx, by = ops.parameter(dims[0], np.float32), ops.parameter(dims[1], np.float32)
    outs = _ti(bx.output(0), by.output(0), part, b)[:2 if b == "read" else 1]
    if where == "if":
        c = ops.parameter([], np.bool_, name="c")
        then = ov.Model([ops.result(o) for o in outs], [bx, by])
        ex, ey = ops.parameter(dims[0], np.float32), ops.parameter(dims[1], np.float32)
        other = ov.Model([ops.result(ex)] + ([ops.result(ey)] if b == "read" else []), [ex, ey])
        op = ops.if_op(c.output(0))
        op.set_then_body(then)
        op.set_else_body(other)
        op.set_input(x.output(0), bx, ex)
        op.set_input(y.output(0), by, ey)
        got = [op.set_output(t, e) for t, e in zip(then.get_results(), other.get_results())]
        return ov.Model([ops.result(o) for o in got], [x, y, c])
    cond = ops.result(ops.constant(True))
    results = [ops.result(o) for o in outs]
    loop = ops.loop(ops.constant(np.int64(1)), ops.constant(True))
    loop.set_function(ov.Model([cond, *results], [bx, by]))
    loop.set_special_body_ports([-1, 0])
    loop.set_invariant_input(bx, x.output(0))
    loop.set_invariant_input(by, y.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1)) for r in results], [x, y])


def _save(model, tmp_path: Path) -> Path:
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def _feed(where: str, rows: int, part: int) -> dict[str, np.ndarray]:
    feed = {"x": np.arange(rows // part, dtype=np.float32), "y": np.arange(rows, dtype=np.float32)}
    return feed | ({"c": np.array(True)} if where == "if" else {})


@pytest.mark.parametrize("where", ["top", "if", "loop"])
@pytest.mark.parametrize("rows,part", [(2, 1), (3, 1), (4, 2)])
def test_the_range_is_refused_where_read_and_removed_unchecked_where_not(where, rows, part, tmp_path) -> None:
    core = ov.Core()
    for b in ("read", "none"):  # b read, or b's body Result in no output: the Parameter stays, so does the check
        path = _save(_model(where, rows, part, b), tmp_path / b)
        with pytest.raises(Exception, match=REFUSED):
            core.compile_model(core.read_model(str(path)), "CPU", CPU)
        found = [d for d in check(path) if d.code == "SL603"]
        assert len(found) == 1 and "removes the entry" not in found[0].message, found

    unread = _save(_model(where, rows, part, "unread"), tmp_path / "unread")
    got = core.compile_model(core.read_model(str(unread)), "CPU", CPU)(_feed(where, rows, part))
    np.testing.assert_array_equal(next(iter(got.values())), 2 * np.arange(rows // part))
    found = [d for d in check(unread) if d.code == "SL603"]
    assert len(found) == 1, found
    assert ("body Parameter 1 is read only on the way to output port(s) 3, which nothing reads, so OpenVINO "
            "removes the entry without checking it") in found[0].message


@pytest.mark.parametrize("where", ["top", "if"])
def test_on_a_dynamic_axis_inference_fails_where_read_and_nothing_is_reported_where_not(where, tmp_path) -> None:
    core = ov.Core()
    read = _save(_model(where, 2, 1, "read", dynamic=True), tmp_path / "read")
    with pytest.raises(Exception, match=REFUSED):
        core.compile_model(core.read_model(str(read)), "CPU", CPU)(_feed(where, 2, 1))
    assert "SL607" in {d.code for d in check(read)}

    unread = _save(_model(where, 2, 1, "unread", dynamic=True), tmp_path / "unread")
    got = core.compile_model(core.read_model(str(unread)), "CPU", CPU)(_feed(where, 2, 1))
    np.testing.assert_array_equal(next(iter(got.values())), [0, 2])
    assert not {d.code for d in check(unread)} & {"SL603", "SL604", "SL607"}
