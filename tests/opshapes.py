"""Shape functions on partial shapes vs OpenVINO's own shape inference.

`check_shapes(model, type_name)` takes an `openvino.Model` whose Parameters may have dynamic or
interval dims, finds its one node of `type_name`, and asserts that irlint's `infer`, fed the partial
shapes OpenVINO inferred for the node's inputs (and the values of Constant inputs), gives the element
types and partial shapes OpenVINO inferred for its outputs. Shapes are read from the in-memory model,
not the saved IR, because the IR writer prints interval dims such as ``0..6`` as ``-1``; the
attributes are read from the saved IR, exactly as irlint reads them. `check_op` covers static shapes
and values; this covers what is known before the sizes are.
"""

from __future__ import annotations

from irlint.ops import TensorInfo
from irlint.types import Dim, element_type, format_shape
from tests.opir import bound_layer


def _shape(pshape):
    if pshape.rank.is_dynamic:
        return None
    out = []
    for d in pshape:
        hi = d.get_max_length()
        out.append(Dim(d.get_min_length(), None if hi < 0 else hi))
    return tuple(out)


def check_shapes(model, type_name: str) -> list[TensorInfo]:
    """Compare irlint's shape function for `type_name` with OpenVINO's; returns irlint's outputs."""
    node, op, attrs = bound_layer(model, type_name)
    infos = []
    for i in range(node.get_input_size()):
        src = node.input_value(i).get_node()
        value = src.get_data() if src.get_type_name() == "Constant" else None
        infos.append(TensorInfo(element_type(node.get_input_element_type(i).get_type_name()),
                                _shape(node.get_input_partial_shape(i)), value))
    got = op.infer(attrs, infos)
    assert len(got) == node.get_output_size(), f"{len(got)} outputs inferred, OpenVINO has {node.get_output_size()}"
    for i, info in enumerate(got):
        want_et = element_type(node.get_output_element_type(i).get_type_name())
        want = _shape(node.get_output_partial_shape(i))
        assert info.etype is not None and info.etype.precision == want_et.precision, (
            f"output {i}: inferred {info.etype}, OpenVINO {want_et}")
        assert info.shape == want, f"output {i}: inferred {format_shape(info.shape)}, OpenVINO {format_shape(want)}"
    return got
