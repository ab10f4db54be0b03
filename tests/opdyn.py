"""Shape functions on partial shapes vs OpenVINO's: `check_infer(model, type_name)`.

`tests.opcheck.check_op` needs concrete inputs, so its shapes are static. Here the model's
Parameters may have dynamic or interval dims: the model is saved as IR, irlint's `infer` gets the
input shapes OpenVINO wrote on the layer's ports (and the values of Const inputs), and each output
must have OpenVINO's element type and partial shape (``-1`` and ``lo..hi`` as intervals).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from lxml import etree

from irlint.ops import TensorInfo, bind_attrs, lookup
from irlint.types import element_type, parse_dim


def _port_shape(port):
    return tuple(parse_dim(d.text or "") for d in port.findall("dim"))


def check_infer(model, type_name: str, *, wider_ok: bool = False) -> list[TensorInfo]:
    """Assert irlint infers OpenVINO's output types and partial shapes for the one `type_name` layer.

    `wider_ok`: an irlint interval may contain OpenVINO's (less precise, never wrong).
    """
    import openvino as ov

    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "m.xml"
        ov.save_model(model, str(xml), compress_to_fp16=False)
        blob = (Path(tmp) / "m.bin").read_bytes()
        root = etree.parse(str(xml)).getroot()
    layers = {la.get("id"): la for la in root.find("layers")}
    (layer,) = [la for la in layers.values() if la.get("type") == type_name]
    op = lookup(type_name, layer.get("version", ""))
    assert op is not None
    data = layer.find("data")
    attrs, problems = bind_attrs(op.Attrs, dict(data.attrib) if data is not None else {})
    assert not problems, problems
    edges = {(e.get("to-layer"), e.get("to-port")): e.get("from-layer") for e in root.find("edges")}
    infos = []
    for port in layer.find("input"):
        src = layers[edges[(layer.get("id"), port.get("id"))]]
        et = element_type(port.get("precision"))
        value = None
        if src.get("type") == "Const":
            d = src.find("data")
            shape = tuple(int(x) for x in d.get("shape").split(",") if x.strip())
            size = min(int(d.get("size")), et.nbytes(int(np.prod(shape, dtype=np.int64))))
            off = int(d.get("offset"))
            value = np.frombuffer(blob[off:off + size], dtype=et.dtype).reshape(shape)
        infos.append(TensorInfo(et, _port_shape(port), value))
    inferred = op.infer(attrs, infos)
    out_ports = list(layer.find("output"))
    assert len(inferred) == len(out_ports)
    for i, (info, port) in enumerate(zip(inferred, out_ports)):
        assert info.etype is not None and info.etype.precision == element_type(port.get("precision")).precision, (
            f"output {i}: inferred {info.etype}, OpenVINO wrote {port.get('precision')}")
        want = _port_shape(port)
        assert info.shape is not None and len(info.shape) == len(want), f"output {i}: {info.shape} vs {want}"
        for got, ref in zip(info.shape, want):
            if wider_ok:
                assert got.lo <= ref.lo and (got.hi is None or (ref.hi is not None and got.hi >= ref.hi)), (
                    f"output {i}: inferred {info.shape} does not contain OpenVINO's {want}")
            else:
                assert got == ref, f"output {i}: inferred {info.shape}, OpenVINO wrote {want}"
    return inferred
