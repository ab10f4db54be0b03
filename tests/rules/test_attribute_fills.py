"""A required attribute deleted from one layer: irlint's verdict and outputs against OpenVINO's.

For every op irlint implements whose attributes include required ones, scripts/attribute_defaults.py
builds a small model with the openvino Python API; each case deletes one attribute from the saved IR
and asks OpenVINO in a child process (read, compile on the CPU plugin at f32, infer; a hang or a
crash of OpenVINO fails only that case's comparison). Where OpenVINO refuses the layer (at read,
compile or inference, or it hangs or crashes), irlint reports an error; where it reads the layer with
a default and runs it, irlint reports T217 naming the attribute and no error, and `irlint run`
computes OpenVINO's outputs (but for the attributes attribute_defaults.NOT_ALIGNED lists, which stay
T210 errors). Skipped when openvino is not installed.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.ops.openvino_fills import FILLED, PER_AXIS
from tests.scripts import script

pytestmark = pytest.mark.skipif(importlib.util.find_spec("openvino") is None, reason="openvino is not installed")

AD = script("attribute_defaults")


def _cases() -> list[tuple[str, str, str]]:
    if importlib.util.find_spec("openvino") is None:
        return []
    built = AD.builders()
    return [(typ, versions, attr) for (typ, versions), attrs in sorted(AD.required_attributes().items())
            if (typ, versions) in built for attr in attrs]


CASES = _cases()


@pytest.fixture(scope="module")
def worker() -> Iterator[object]:
    w = AD.Worker(timeout=30)  # the hang (Assign without variable_id) is told by 30 s as well as by 300
    yield w
    w.close()


@pytest.mark.parametrize("typ,versions,attr", CASES, ids=[f"{t}-{v}-{a}" for t, v, a in CASES])
def test_irlint_agrees_with_openvino_on_a_missing_attribute(typ: str, versions: str, attr: str, worker,
                                                             tmp_path: Path) -> None:
    model = AD.builders()[(typ, versions)]()
    xml, name, _ = AD.drop_attribute(model, typ, attr, tmp_path / "m.xml")
    inputs = AD.inputs_for(model)
    verdict, why, value, outputs = worker.ask(str(xml), name, attr, inputs)
    found = irlint.check(xml)
    # T211 is left out: the declared output ports keep the dims the written attribute gave them
    errors = [d for d in found if d.severity == Severity.ERROR and d.code != "T211"]
    if verdict != "filled":  # OpenVINO refuses (read, compile, infer), hangs or crashes
        assert errors, f"OpenVINO: {verdict} ({why}); irlint reports no error: {found}"
        return
    if (typ, versions, attr) in AD.NOT_ALIGNED:  # irlint keeps its error, and says which attribute
        assert any(d.code == "T210" and f"'{attr}'" in d.message for d in errors), found
        return
    assert not errors, f"OpenVINO reads {attr} as {value!r} and runs; irlint: {errors}"
    t217 = [d for d in found if d.code == "T217"]
    assert len(t217) == 1 and f"'{attr}'" in t217[0].message, found
    assert _same_value(FILLED[(typ, versions, attr)], attr, value), (FILLED[(typ, versions, attr)], value)
    ours = irlint.run(irlint.load(xml), inputs)
    assert len(ours) == len(outputs)
    if (typ, versions) == ("Proposal", "opset4"):  # scores past each image's last box: uninitialised in
        outputs[1] = np.where(_proposed(xml, outputs[0]), outputs[1], ours["out1"])  # the plugin (semantics.md)
    for i, want in enumerate(outputs):
        got = ours[f"out{i}"]
        assert got.shape == want.shape, (i, got.shape, want.shape)
        if np.issubdtype(want.dtype, np.floating):
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-4, atol=1e-5,
                                       err_msg=f"output {i}")
        else:
            np.testing.assert_array_equal(got, want.astype(got.dtype), err_msg=f"output {i}")


def _proposed(xml: Path, rois: np.ndarray) -> np.ndarray:
    """Which rows of a Proposal's output hold a box: those before the -1 that ends each image's rows."""
    from lxml import etree

    layer = etree.parse(str(xml)).getroot().find("./layers/layer[@type='Proposal']")
    per_image = int(layer.find("data").get("post_nms_topn"))
    ended = np.maximum.accumulate((rois[:, 0] == -1).reshape(-1, per_image), axis=1)
    return ~ended.reshape(-1)


def _same_value(text: str, attr: str, value: object) -> bool:
    """Whether irlint's table entry (IR text) is the value OpenVINO reports it filled."""
    if isinstance(value, list):
        if text == "" and attr in PER_AXIS:  # an empty per-axis list: OpenVINO reports it filled in
            return bool(value) and all(v == PER_AXIS[attr] for v in value)
        return [float(v) for v in text.split(",") if v.strip()] == [float(v) for v in value]
    if isinstance(value, bool):
        return text == str(value).lower()
    if isinstance(value, (int, float)):
        return float(text) == float(value)
    return text.lower() == str(value).lower()
