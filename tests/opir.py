"""The step every op harness starts with: save an `openvino.Model` as IR and bind the one layer of
a type exactly as irlint would (its `<data>` through irlint's binder), beside the in-memory node."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from lxml import etree

from irlint.ops import Op, bind_attrs, lookup


def bound_layer(model, type_name: str) -> tuple[Any, Op, Any]:
    """(OpenVINO node, irlint op, attributes bound from the saved `<layer>`) of the one `type_name`."""
    import openvino as ov

    nodes = [n for n in model.get_ordered_ops() if n.get_type_name() == type_name]
    assert len(nodes) == 1, f"expected one {type_name} node, found {len(nodes)}"
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "m.xml"
        ov.save_model(model, str(xml), compress_to_fp16=False)
        root = etree.parse(str(xml)).getroot()
    (layer,) = [la for la in root.find("layers") if la.get("type") == type_name]
    op = lookup(type_name, layer.get("version", ""))
    assert op is not None, f"no irlint op registered for {type_name} {layer.get('version')}"
    data = layer.find("data")
    attrs, problems = bind_attrs(op.Attrs, dict(data.attrib) if data is not None else {})
    assert not problems, problems
    return nodes[0], op, attrs
