"""Every op declares `types` and `versions`, and the new ops answer for the opset OpenVINO writes.

The opsets below are what `openvino.save_model` writes in the `version` attribute (checked by
saving one layer of each); `lookup` must find the op for that exact version, so a docs table built
from `versions` says which opsets irlint knows.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from irlint.ops import known_types, lookup

WRITTEN = {
    "Acos": ["opset1"], "Asin": ["opset1"], "Atan": ["opset1"], "Tan": ["opset1"], "Sinh": ["opset1"],
    "Cosh": ["opset1"], "Acosh": ["opset4"], "Asinh": ["opset4"], "Atanh": ["opset4"], "SoftSign": ["opset9"],
    "Round": ["opset5"], "Identity": ["opset16"], "IsNaN": ["opset10"], "IsInf": ["opset10"],
    "IsFinite": ["opset10"], "LogSoftmax": ["opset5"], "GatherElements": ["opset6"],
    "GatherND": ["opset5", "opset8"], "ScatterUpdate": ["opset3"], "ScatterElementsUpdate": ["opset3", "opset12"],
    "ScatterNDUpdate": ["opset4", "opset15"], "TopK": ["opset1", "opset3", "opset11"], "OneHot": ["opset1", "opset16"],
    "NonZero": ["opset3"], "Pad": ["opset1", "opset12"], "Reverse": ["opset1"], "ReverseSequence": ["opset1"],
    "Roll": ["opset7"], "CumSum": ["opset3"], "DepthToSpace": ["opset1"], "SpaceToDepth": ["opset1"],
    "ShuffleChannels": ["opset1"], "Bucketize": ["opset3"], "BitwiseAnd": ["opset13"], "BitwiseOr": ["opset13"],
    "BitwiseXor": ["opset13"], "BitwiseNot": ["opset13"], "BitwiseLeftShift": ["opset15"],
    "BitwiseRightShift": ["opset15"], "Einsum": ["opset7"], "Unique": ["opset10"],
}


def test_every_op_declares_types_and_versions() -> None:
    for type_name, ops in known_types().items():
        for op in ops:
            assert op.types and type_name in op.types, type(op).__name__
            assert op.versions and all(v.startswith("opset") for v in op.versions), type(op).__name__


@pytest.mark.parametrize("type_name", sorted(WRITTEN))
def test_new_ops_answer_for_their_opsets(type_name) -> None:
    for version in WRITTEN[type_name]:
        op = lookup(type_name, version)
        assert op is not None and version in op.versions, (type_name, version)
    declared = {v for op in known_types()[type_name] for v in op.versions}
    assert declared == set(WRITTEN[type_name]), (type_name, declared)


def test_written_versions_match_openvino() -> None:
    ov = pytest.importorskip("openvino")
    import openvino.opset3 as o3
    import openvino.opset4 as o4
    import openvino.opset10 as o10
    import openvino.opset15 as o15
    import openvino.opset16 as o16
    from openvino.utils.node_factory import NodeFactory

    p = o15.parameter([2, 4], np.float32, name="x")
    pi = o15.parameter([2, 4], np.int32, name="xi")
    c = o15.constant(np.array(1, np.int64))
    nodes = [o15.softsign(p), o15.acosh(p), o16.identity(p), o10.is_inf(p), o15.roll(p, c, c),
             o15.einsum([p], "ab->ba"), o15.bitwise_left_shift(pi, pi), o3.bucketize(p, o15.constant(np.zeros(2,
                                                                                                         np.float32)))]
    nodes.append(o4.scatter_nd_update(p, o15.constant(np.array([[1]], np.int64)), o15.constant(np.zeros((1, 4),
                                                                                                        np.float32))))
    nodes.append(NodeFactory("opset1").create("Reverse", [p.output(0), o15.constant(np.array([1], np.int64)).output(0)],
                                              {"mode": "index"}))
    model = ov.Model([o15.result(n) for n in nodes], [p, pi])
    with tempfile.TemporaryDirectory() as tmp:
        ov.save_model(model, str(Path(tmp) / "m.xml"))
        root = etree.parse(str(Path(tmp) / "m.xml")).getroot()
    seen = {la.get("type"): la.get("version") for la in root.find("layers")}
    for type_name in ("SoftSign", "Acosh", "Identity", "IsInf", "Roll", "Einsum", "BitwiseLeftShift", "Bucketize",
                      "ScatterNDUpdate", "Reverse"):
        assert seen[type_name] in WRITTEN[type_name], (type_name, seen[type_name])
