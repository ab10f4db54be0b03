"""Running a small model on OpenVINO (CPU plugin or the core reference) and on irlint with tensors of
any element type, bf16/f8/f4/i4 included: OpenVINO's Python tensors do not take ml_dtypes arrays, so
the bytes are copied in and out, packed as OpenVINO packs sub-byte types.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import irlint
from irlint.interp import run
from irlint.types import ELEMENT_TYPES, ElementType

# The narrow element types surveyed, and the wide types they meet.
LOW_FLOATS = ("bf16", "f16", "f8e4m3", "f8e5m2", "f8e8m0", "f4e2m1")
LOW_INTS = ("i4", "u4")


def etype(name: str) -> ElementType:
    return ELEMENT_TYPES[name]


def ov_tensor(name: str, arr: np.ndarray):
    """An openvino.Tensor of element type `name` holding `arr`'s values (an array of that type's dtype)."""
    import openvino as ov

    et = etype(name)
    arr = np.ascontiguousarray(arr)
    t = ov.Tensor(getattr(ov.Type, name), list(arr.shape))
    raw = arr.view(np.uint8).reshape(-1)
    if et.bits == 4:
        codes = raw & np.uint8(0xF)
        if codes.size % 2:
            codes = np.append(codes, np.uint8(0))
        raw = (codes[0::2] | (codes[1::2] << 4)).astype(np.uint8)
    np.asarray(t.data).view(np.uint8).reshape(-1)[:] = raw
    return t


def from_ov(t) -> np.ndarray:
    """An openvino.Tensor's values as a numpy/ml_dtypes array (sub-byte types unpacked)."""
    name = t.element_type.get_type_name()
    name = {"boolean": "boolean", "char": "boolean"}.get(name, name)
    et = etype(name)
    shape = tuple(t.shape)
    raw = np.array(np.asarray(t.data).view(np.uint8).reshape(-1), copy=True)
    if et.bits == 4:
        raw = np.stack([raw & np.uint8(0xF), raw >> np.uint8(4)], 1).reshape(-1)[: int(np.prod(shape))]
    return raw.view(et.dtype).reshape(shape)


def cpu(model, inputs: list[np.ndarray], types: list[str]) -> list[np.ndarray]:
    """The CPU plugin's outputs at f32 inference precision."""
    import openvino as ov

    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    req = compiled.create_infer_request()
    for i, (x, name) in enumerate(zip(inputs, types)):
        req.set_input_tensor(i, ov_tensor(name, x))
    req.infer()
    return [from_ov(req.get_output_tensor(i)) for i in range(len(model.outputs))]


def reference(node, inputs: list[np.ndarray], types: list[str]) -> list[np.ndarray] | None:
    """The core reference kernel's outputs (`Node.evaluate`), or None where it has none for the types."""
    import openvino as ov

    outs = [ov.Tensor(node.get_output_element_type(i), node.get_output_partial_shape(i).to_shape())
            for i in range(node.get_output_size())]
    fed = iter(zip(inputs, types))
    args = []
    for port in node.inputs():  # Parameters take `inputs` in order; Constants give their own data
        src = port.get_source_output().get_node()
        if src.get_type_name() == "Constant":
            args.append(ov.Tensor(np.array(src.get_data())) if src.get_element_type().bitwidth >= 8
                        else src.get_tensor_view())
        else:
            x, n = next(fed)
            args.append(ov_tensor(n, x))
    if not node.evaluate(outs, args):
        return None
    return [from_ov(t) for t in outs]


def irlint_run(model, inputs: list[np.ndarray], tmp: Path) -> list[np.ndarray]:
    """irlint's interpreter on `model` saved as IR; outputs in the model's order."""
    import openvino as ov

    path = tmp / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    names = [p.get_friendly_name() for p in model.get_parameters()]
    got = run(irlint.load(path), dict(zip(names, inputs)))
    return [got[r.get_friendly_name()] for r in model.get_results()]


def bits(a: np.ndarray) -> np.ndarray:
    """The raw element bits, for bit-exact comparisons (NaN payloads included)."""
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def ulps(a: np.ndarray, b: np.ndarray) -> int:
    """The largest distance in units in the last place between two float arrays of one narrow type
    (NaN equals NaN), counted on the sign-magnitude bit patterns."""
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    ia, ib = (bits(x).astype(np.int64) for x in (a, b))
    if a.dtype != etype("f8e8m0").dtype:  # the one narrow float without a sign bit
        top = 1 << (a.dtype.itemsize * 8 - 1)
        ia = np.where(ia & top, top - ia, ia)
        ib = np.where(ib & top, top - ib, ib)
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    same = (np.isnan(fa) & np.isnan(fb)) | (fa == fb)
    d = np.where(same, 0, np.abs(ia - ib))
    return int(d.max()) if d.size else 0


def sample(name: str, shape: tuple[int, ...], rng: np.random.Generator, *, positive: bool = False) -> np.ndarray:
    """Random values exactly representable in `name` (so inputs mean the same everywhere)."""
    et = etype(name)
    if name == "nf4":  # codes into OpenVINO's table
        return rng.integers(0, 16, size=shape).astype(np.uint8).view(et.dtype)
    if et.is_integer:
        info = (-8, 8) if name == "i4" else (0, 16)
        return rng.integers(*info, size=shape).astype(et.dtype)
    x = rng.standard_normal(shape).astype(np.float32) * 2
    if positive or name == "f8e8m0":
        x = np.abs(x) + np.float32(0.125)
    return x.astype(et.dtype)


def ov_round(y: np.ndarray, name: str) -> np.ndarray:
    """f32 values rounded to type `name` by the CPU plugin's Convert (the rounding every test expects)."""
    import openvino as ov
    import openvino.opset15 as ops

    y = np.ascontiguousarray(y, np.float32)
    p = ops.parameter(list(y.shape), ov.Type.f32, name="y")
    model = ov.Model([ops.result(ops.convert(p, getattr(ov.Type, name)), name="r")], [p])
    return cpu(model, [y], ["f32"])[0]
