"""Shape functions on partial shapes vs OpenVINO's: `check_infer(model, type_name)`.

`tests.opcheck.check_op` needs concrete inputs, so its shapes are static. Here the model's
Parameters may have dynamic or interval dims: the attributes are bound from the saved IR, irlint's
`infer` gets the op node's input partial shapes as OpenVINO's in-memory model has them (and the
values of Constant inputs), and each output must have OpenVINO's element type and partial shape.
The IR's port dims are not used: the serializer writes an interval ``2..5`` as ``-1``.
"""

from __future__ import annotations

import numpy as np

from irlint.ops import TensorInfo
from irlint.types import Dim, element_type
from tests.opir import bound_layer


def _shape(ps) -> tuple[Dim, ...]:
    """An OpenVINO PartialShape (static rank) as irlint dims."""
    assert ps.rank.is_static, "dynamic rank is not compared here"
    return tuple(Dim(d.get_min_length(), None if d.get_max_length() < 0 else d.get_max_length()) for d in ps)


def check_infer(model, type_name: str, *, wider_ok: bool = False) -> list[TensorInfo]:
    """Assert irlint infers OpenVINO's output types and partial shapes for the one `type_name` layer.

    `wider_ok`: an irlint interval may contain OpenVINO's (less precise, never wrong).
    """
    node, op, attrs = bound_layer(model, type_name)
    infos = []
    for inp in node.inputs():
        src = inp.get_source_output().get_node()
        value = src.get_data() if src.get_type_name() == "Constant" else None
        infos.append(TensorInfo(element_type(inp.get_element_type().get_type_name()),
                                _shape(inp.get_partial_shape()), None if value is None else np.array(value)))
    inferred = op.infer(attrs, infos)
    assert len(inferred) == node.get_output_size()
    for i, info in enumerate(inferred):
        et = element_type(node.get_output_element_type(i).get_type_name())
        assert info.etype is not None and info.etype.precision == et.precision, (
            f"output {i}: inferred {info.etype}, OpenVINO has {et}")
        want = _shape(node.get_output_partial_shape(i))
        assert info.shape is not None and len(info.shape) == len(want), f"output {i}: {info.shape} vs {want}"
        for got, ref in zip(info.shape, want):
            if wider_ok:
                assert got.lo <= ref.lo and (got.hi is None or (ref.hi is not None and got.hi >= ref.hi)), (
                    f"output {i}: inferred {info.shape} does not contain OpenVINO's {want}")
            else:
                assert got == ref, f"output {i}: inferred {info.shape}, OpenVINO has {want}"
    return inferred
