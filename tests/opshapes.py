"""Shape functions on partial shapes vs OpenVINO's own shape inference.

`check_shapes(model, type_name)` saves an `openvino.Model` whose Parameters may have dynamic or
interval dims, finds the one layer of `type_name`, and asserts that irlint's `infer`, fed the
partial shapes OpenVINO wrote on the layer's input ports (and the values of Const inputs), gives
the element types and partial shapes OpenVINO wrote on its output ports. `check_op` covers static
shapes and values; this covers what is known before the sizes are.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from lxml import etree

from irlint.ops import TensorInfo, bind_attrs, lookup
from irlint.types import element_type, format_shape, parse_dim


def _port_shape(port):
    return tuple(parse_dim(d.text or "") for d in port.findall("dim"))


def check_shapes(model, type_name: str) -> list[TensorInfo]:
    """Compare irlint's shape function for `type_name` with what OpenVINO declared; returns irlint's."""
    import openvino as ov

    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "m.xml"
        ov.save_model(model, str(xml), compress_to_fp16=False)
        blob = (Path(tmp) / "m.bin").read_bytes()
        root = etree.parse(str(xml)).getroot()
    layers = {la.get("id"): la for la in root.find("layers")}
    (layer,) = [la for la in layers.values() if la.get("type") == type_name]
    op = lookup(type_name, layer.get("version", ""))
    assert op is not None, f"no irlint op for {type_name} {layer.get('version')}"
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
            off, size = int(d.get("offset")), int(d.get("size"))
            size = min(size, et.nbytes(int(np.prod(shape, dtype=np.int64))))
            value = np.frombuffer(blob[off:off + size], dtype=et.dtype).reshape(shape)
        infos.append(TensorInfo(et, _port_shape(port), value))
    got = op.infer(attrs, infos)
    outs = list(layer.find("output"))
    assert len(got) == len(outs), f"{len(got)} outputs inferred, IR declares {len(outs)}"
    for i, (info, port) in enumerate(zip(got, outs)):
        want = _port_shape(port)
        assert info.etype is not None and info.etype.precision == element_type(port.get("precision")).precision, (
            f"output {i}: inferred {info.etype}, OpenVINO wrote {port.get('precision')}")
        assert info.shape == want, f"output {i}: inferred {format_shape(info.shape)}, OpenVINO {format_shape(want)}"
    return got
