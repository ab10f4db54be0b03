"""Every element type OpenVINO has is known to irlint, sized as OpenVINO sizes it in the .bin, and the ones
numpy or ml_dtypes can hold are read back from the .bin with the values OpenVINO reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.types import ELEMENT_TYPES, element_type

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

OV_TYPES = sorted(n for n in dir(ov.Type) if isinstance(getattr(ov.Type, n), ov.Type) and n != "dynamic")
LOADABLE = ("bf16", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1", "i4", "u4", "u2")
LOADABLE += ("u1",) if ELEMENT_TYPES["u1"].dtype else ()  # ml_dtypes 0.6+
VALUES = {  # values each type represents exactly, odd counts so the last byte of a packed type is partial
    "bf16": [1.0, -2.5, 3.140625], "f8e4m3": [0.5, -448.0, 3.0, 0.0, 1.125], "f8e5m2": [0.5, -57344.0, 3.0],
    "f8e8m0": [0.5, 1.0, 4.0, 2.0**-10, 2.0**20], "f4e2m1": [0.5, 1.0, -6.0, 3.0, 0.0, -0.5, 4.0],
    "i4": [-8, -1, 0, 1, 7, 3, -2], "u4": [0, 1, 2, 15, 7, 8, 3, 9, 11], "u2": [0, 1, 2, 3, 3, 2, 1],
    "u1": [1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0],
}


def test_openvino_lists_the_types_this_test_knows() -> None:
    assert {"f4e2m1", "f8e8m0", "nf4", "u1", "u2", "u3", "u6", "string", "bf16"} <= set(OV_TYPES)


@pytest.mark.parametrize("name", OV_TYPES)
def test_every_openvino_type_is_known_by_name_and_written_precision(name: str, tmp_path: Path) -> None:
    """A Parameter of the type, saved by openvino: element_type and both port precisions are read, no IR005."""
    p = ops.parameter([3], getattr(ov.Type, name), name="p")
    path = tmp_path / "t.xml"
    ov.save_model(ov.Model([ops.result(p)], [p]), str(path))
    model = irlint.load(path)
    param = next(la for la in model.graph.layers if la.type == "Parameter")
    assert element_type(param.data["element_type"]) is ELEMENT_TYPES[name]
    assert param.outputs[0].precision is ELEMENT_TYPES[name]
    assert [d.code for d in irlint.check(path) if d.severity is Severity.ERROR] == []


@pytest.mark.parametrize("name", [n for n in OV_TYPES if n != "string"])
def test_byte_sizes_match_openvino(name: str) -> None:
    t = getattr(ov.Type, name)
    for count in range(1, 18):
        assert ELEMENT_TYPES[name].nbytes(count) == ops.constant(np.ones(count, np.float32), dtype=t).get_byte_size()


def test_consts_of_every_loadable_type_read_back_as_openvino_reads_them(tmp_path: Path) -> None:
    results = [ops.result(ops.constant(np.array(VALUES[n], np.float32), dtype=getattr(ov.Type, n), name=f"c_{n}"),
                          name=f"r_{n}") for n in LOADABLE]
    path = tmp_path / "consts.xml"
    ov.save_model(ov.Model(results, []), str(path), compress_to_fp16=False)

    core = ov.Core()
    read = core.read_model(str(path))
    as_f32 = [ops.result(ops.convert(r.input_value(0), ov.Type.f32), name=r.get_friendly_name()) for r in
              read.get_results()]
    out = core.compile_model(ov.Model(as_f32, []), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})({})
    expected = {k.get_node().get_friendly_name()[2:]: v for k, v in out.items()}

    model = irlint.load(path)
    assert [d.code for d in irlint.check(path) if d.severity is not Severity.INFO] == []
    for layer in model.graph.layers:
        if layer.type != "Const":
            continue
        name = layer.data["element_type"]
        et = ELEMENT_TYPES[name]
        value = model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), et, (len(VALUES[name]),))
        assert value.dtype == et.dtype
        np.testing.assert_array_equal(value.astype(np.float32), expected[name], err_msg=name)
        np.testing.assert_array_equal(value.astype(np.float32), np.array(VALUES[name], np.float32), err_msg=name)


@pytest.mark.parametrize("name", ["f32", "f64", "f16", "i32", "i64", "u8", "boolean"])
def test_a_const_read_from_the_bin_has_numpys_own_dtype(name: str, tmp_path: Path) -> None:
    # An equal dtype that is another object fails every `dtype is F32` fast test of the kernels (and
    # generated loop bodies call them inline only behind such a test)
    et = ELEMENT_TYPES[name]
    value = np.arange(3).astype(et.dtype)
    path = tmp_path / "c.xml"
    ov.save_model(ov.Model([ops.result(ops.constant(value, name="c"))], []), str(path), compress_to_fp16=False)
    model = irlint.load(path)
    (const,) = [la for la in model.graph.layers if la.type == "Const"]
    got = model.weights.array(int(const.data["offset"]), int(const.data["size"]), et, (3,))
    assert got.dtype is np.dtype(et.dtype.name) and np.array_equal(got, value)
