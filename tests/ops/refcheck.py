"""Comparing an irlint kernel with OpenVINO's core reference implementation (`Node.evaluate`).

Where the CPU plugin departs from the core reference (docs/semantics.md) or rejects a valid
attribute combination, the op is checked against the reference kernel instead: the node's own
`evaluate` runs the reference implementation on the concrete inputs. Attributes are read from the
saved IR exactly as `tests.opcheck.check_op` reads them, so the binder is exercised too.
"""

from __future__ import annotations

import numpy as np

from irlint.ops import TensorInfo
from irlint.types import static_shape
from tests.opir import bound_layer


def check_reference(model, inputs: dict[str, np.ndarray], type_name: str, *, rtol: float = 1e-5,
                    atol: float = 1e-6) -> list[np.ndarray]:
    """irlint's `type_name` op vs the core reference on `model` (one such node fed by Parameters/Consts)."""
    import openvino as ov

    node, op, attrs = bound_layer(model, type_name)
    arrays = []
    for port in node.inputs():
        src = port.get_source_output().get_node()
        if src.get_type_name() == "Parameter":
            arrays.append(np.asarray(inputs[src.get_friendly_name()]))
        else:
            assert src.get_type_name() == "Constant", f"{type_name} input fed by {src.get_type_name()}"
            arrays.append(np.array(src.get_data()))
    outs = [ov.Tensor(node.get_output_element_type(i), node.get_output_partial_shape(i).to_shape())
            for i in range(node.get_output_size())]
    assert node.evaluate(outs, [ov.Tensor(np.ascontiguousarray(a)) for a in arrays]), "reference evaluate failed"
    want = [np.array(t.data) for t in outs]

    got = op.compute(attrs, arrays)
    infos = [TensorInfo(None, static_shape(a.shape), a) for a in arrays]
    inferred = op.infer(attrs, infos)
    assert len(got) == len(want) == len(inferred)
    for i, (g, w, info) in enumerate(zip(got, want, inferred)):
        assert g.shape == w.shape, f"output {i}: shape {g.shape} vs reference {w.shape}"
        assert info.shape == static_shape(w.shape), f"output {i}: inferred {info.shape}, reference {w.shape}"
        if np.issubdtype(w.dtype, np.floating):
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(g, w)
    return got
