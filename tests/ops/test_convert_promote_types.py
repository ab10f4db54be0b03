"""ConvertPromoteTypes-14 against OpenVINO (CPU plugin values, core shape/type inference)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import element_type, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset14")

CASES = [  # type a, shape a, type b, shape b, promote_unsafe, pytorch_scalar_promotion
    (np.float32, [2, 3], np.int8, [3], False, False),
    (np.int32, [2], np.float64, [2], False, False),
    (np.uint8, [2, 2], np.int16, [2, 2], False, False),
    (np.uint8, [2], np.int8, [2], True, False),
    (np.uint16, [3], np.int64, [3], False, False),
    (np.int16, [4], np.int64, [1], False, False),
    (np.bool_, [2], np.float32, [2], False, False),
    (np.int64, [2, 2], np.int32, [], False, True),
    (np.float16, [3], np.float32, [], True, True),
    (np.uint32, [2], np.int32, [2], True, False),
    (np.float16, [2], np.int32, [2], True, False),
]


@pytest.mark.parametrize("ta,sa,tb,sb,unsafe,scalar", CASES)
def test_promote(ta, sa, tb, sb, unsafe, scalar) -> None:
    rng = np.random.default_rng(2)
    a = (rng.random(sa) * 10).astype(ta)
    b = (rng.random(sb) * 10).astype(tb)
    pa, pb = ops.parameter(sa, ta, name="a"), ops.parameter(sb, tb, name="b")
    node = ops.convert_promote_types(pa, pb, unsafe, scalar)
    model = ov.Model([ops.result(node.output(0), name="y0"), ops.result(node.output(1), name="y1")], [pa, pb])
    check_op(model, {"a": a, "b": b}, "ConvertPromoteTypes")
    check_infer(model, "ConvertPromoteTypes")


def test_u64_target_and_unsafe_errors() -> None:
    pa, pb = ops.parameter([2], np.uint64, name="a"), ops.parameter([2], np.int8, name="b")
    node = ops.convert_promote_types(pa, pb, True, False, "i64")
    check_infer(ov.Model([ops.result(node.output(0), name="y")], [pa, pb]), "ConvertPromoteTypes")
    op = lookup("ConvertPromoteTypes", "opset14")
    safe, _ = bind_attrs(op.Attrs, {})
    for ta, tb, msg in (("f16", "i32", "safely promoted"), ("u64", "i8", "no safe signed"),
                        ("f16", "bf16", "no common type"), ("u8", "i8", "no safe signed")):
        with pytest.raises(OpError, match=msg):
            op.infer(safe, [TensorInfo(element_type(ta), static_shape([2])),
                            TensorInfo(element_type(tb), static_shape([2]))])
