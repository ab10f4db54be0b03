"""Conformance harness for single ops: irlint's kernel and shape function vs OpenVINO's CPU plugin.

`check_op(model, inputs, type_name)` saves an `openvino.Model` as IR, finds the one layer of
`type_name`, binds its `<data>` attributes with irlint's binder, feeds the kernel the layer's inputs
(Parameters from `inputs`, Consts from the .bin), and asserts that
- `compute` agrees with OpenVINO's CPU plugin (f32 inference precision) on every output,
- `infer` gives the element type and shape OpenVINO wrote on the output ports, and the shape of the
  computed arrays.
It reads the IR with lxml directly so that op tests do not depend on the loader.

With IRLINT_OPCHECK_LOG set, every call appends "test id, op type, IR version" to that file:
scripts/ops_table.py joins it with pytest's JUnit report to say which test covers which op.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
from lxml import etree

from irlint.ir.weights import unpack
from irlint.ops import TensorInfo, bind_attrs, lookup
from irlint.types import element_type, parse_dim, static_shape

RTOL = 1e-4
ATOL = 1e-5


def op_model(build, x: np.ndarray, shape: list[int] | None = None, extra: tuple = (), *, every_output: bool = True):
    """An `openvino.Model` around `build(x, *extra)` and its feed: Parameter x (declared `shape`, default
    x's own), Parameters `extra` ((name, array) pairs), a Result an output of the node, y0, y1, ... (or,
    `every_output` false, one Result "y" of the node)."""
    import openvino as ov
    import openvino.opset1 as ops

    p = ops.parameter(list(x.shape) if shape is None else shape, x.dtype, name="x")
    ps = [ops.parameter(list(a.shape), a.dtype, name=n) for n, a in extra]
    node = build(p, *ps)
    if every_output:
        outs = [ops.result(node.output(i), name=f"y{i}") for i in range(node.get_output_size())]
    else:
        outs = [ops.result(node, name="y")]
    return ov.Model(outs, [p, *ps]), {"x": x, **dict(extra)}


def ov_infer(model, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Run an openvino.Model on the CPU plugin (f32 inference precision); outputs by Result name."""
    import openvino as ov

    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    feed = [inputs[p.get_friendly_name()] for p in model.get_parameters()]
    res = compiled.create_infer_request().infer(feed)
    return {r.get_friendly_name(): np.array(res[i]) for i, r in enumerate(model.get_results())}


def _port_info(port) -> tuple[str | None, tuple[int, ...] | None]:
    prec = port.get("precision")
    dims = []
    for d in port.findall("dim"):
        parsed = parse_dim(d.text or "")
        if parsed is None or not parsed.is_static:
            return prec, None
        dims.append(parsed.lo)
    return prec, tuple(dims)


def check_op(model, inputs: dict[str, np.ndarray], type_name: str, *, rtol: float = RTOL,
             atol: float = ATOL, exact: bool | None = None) -> list[np.ndarray]:
    """Compare irlint's op `type_name` with OpenVINO on `model`; returns irlint's outputs."""
    import openvino as ov

    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "m.xml"
        ov.save_model(model, str(xml), compress_to_fp16=False)
        blob = (Path(tmp) / "m.bin").read_bytes()
        root = etree.parse(str(xml)).getroot()
    layers = {la.get("id"): la for la in root.find("layers")}
    targets = [la for la in layers.values() if la.get("type") == type_name]
    assert len(targets) == 1, f"expected one {type_name} layer, found {len(targets)}"
    layer = targets[0]
    op = lookup(type_name, layer.get("version", ""))
    assert op is not None, f"no irlint op registered for {type_name} {layer.get('version')}"
    _log_coverage(type_name, layer.get("version", ""))
    data = layer.find("data")
    attrs, problems = bind_attrs(op.Attrs, dict(data.attrib) if data is not None else {})
    assert not problems, problems

    edges = {(e.get("to-layer"), e.get("to-port")): (e.get("from-layer"), e.get("from-port"))
             for e in root.find("edges")}
    arrays: list[np.ndarray] = []
    infos: list[TensorInfo] = []
    for port in (layer.find("input") if layer.find("input") is not None else []):
        src_id, _ = edges[(layer.get("id"), port.get("id"))]
        src = layers[src_id]
        if src.get("type") == "Parameter":
            arr = np.asarray(inputs[src.get("name")])
            infos.append(TensorInfo(element_type(src.find("data").get("element_type")),
                                    static_shape(arr.shape)))
        elif src.get("type") == "Const":
            d = src.find("data")
            et = element_type(d.get("element_type"))
            shape = tuple(int(x) for x in d.get("shape").split(",") if x.strip())
            off, size = int(d.get("offset")), int(d.get("size"))
            # OpenVINO writes size="1" for an empty Const: read only the bytes the shape needs.
            size = min(size, et.nbytes(int(np.prod(shape, dtype=np.int64))))
            if et.bits < 8:  # u1/u2/u4/i4...: packed, unpacked as irlint's loader does
                arr = unpack(np.frombuffer(blob[off:off + size], np.uint8), et, int(np.prod(shape))).reshape(shape)
            else:
                arr = np.frombuffer(blob[off:off + size], dtype=et.dtype).reshape(shape)
            infos.append(TensorInfo(et, static_shape(arr.shape), arr))
        else:
            raise AssertionError(f"{type_name} input fed by {src.get('type')}: use Parameters/Consts")
        arrays.append(arr)

    got = op.compute(attrs, arrays)
    want = ov_infer(model, inputs)
    out_ports = list(layer.find("output")) if layer.find("output") is not None else []
    assert len(got) == len(out_ports), f"{len(got)} outputs, IR declares {len(out_ports)}"

    # Shape function: what OpenVINO declared, for both known and value-free inputs.
    inferred = op.infer(attrs, infos)
    assert len(inferred) == len(out_ports)
    for i, (info, port, arr) in enumerate(zip(inferred, out_ports, got)):
        prec, dims = _port_info(port)
        assert info.etype is not None and info.etype.precision == element_type(prec).precision, (
            f"output {i}: inferred {info.etype}, OpenVINO wrote {prec}")
        if dims is not None and info.shape is not None:
            assert tuple(d.value for d in info.shape) == dims, (
                f"output {i}: inferred {info.shape}, OpenVINO wrote {dims}")
        if dims is not None:
            assert arr.shape == dims, f"output {i}: computed shape {arr.shape}, OpenVINO wrote {dims}"

    # Kernel: values as OpenVINO's CPU plugin computes them, mapped to results by order.
    result_sources = _results_fed_by(root, edges, layer.get("id"))
    assert result_sources, f"no Result is fed by the {type_name} layer"
    for result_name, port_id in result_sources:
        port_pos = [p.get("id") for p in out_ports].index(port_id)
        g, w = got[port_pos], want[result_name]
        assert g.shape == w.shape, f"output {port_id}: shape {g.shape} vs OpenVINO {w.shape}"
        is_exact = exact if exact is not None else not np.issubdtype(w.dtype, np.floating)
        if is_exact:
            np.testing.assert_array_equal(g, w.astype(g.dtype, copy=False))
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol)
    return got


def _log_coverage(type_name: str, version: str) -> None:
    """Record that the running test checks `type_name` `version` (see the module docstring)."""
    log = os.environ.get("IRLINT_OPCHECK_LOG")
    if log:
        test_id = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
        with open(log, "a", encoding="utf-8") as f:
            f.write(f"{test_id}\t{type_name}\t{version}\n")


def _results_fed_by(root, edges, layer_id) -> list[tuple[str, str]]:
    """Pairs (Result name, output port id of the op) for the Results the op feeds directly."""
    pairs = []
    for res in root.find("layers"):
        if res.get("type") == "Result":
            src = edges.get((res.get("id"), "0"))
            if src and src[0] == layer_id:
                pairs.append((res.get("name"), src[1]))
    return pairs
