"""The corpus of real IRs (tests/corpus/README.md): what OpenVINO writes must check clean.

- ONNX models (onnx_models.py) converted by `openvino.convert_model` at test time;
- Consts and Parameters of every element type, written by openvino's Python API;
- third-party IRs from OpenVINO's own test sources (thirdparty/), each with the findings that are
  real defects of that file listed in THIRD_PARTY (and OpenVINO's verdict on it measured).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from tests.corpus.onnx_models import ONNX_MODELS, to_ir

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")
pytest.importorskip("onnx")

HERE = Path(__file__).parent
THIRD_PARTY_DIR = HERE / "thirdparty"


def findings(path: Path) -> set[tuple[str, int]]:
    return {(d.code, d.loc.line) for d in irlint.check(path) if d.severity is not Severity.INFO}


# Warnings that a valid model cannot compile on OpenVINO's CPU plugin (rules/cpu_plugin.py); the
# models that get them are tested for them below, with OpenVINO's own refusal.
CPU_PLUGIN_LIMITS = frozenset({"T213", "T214", "PM420", "IF807"})
CPU_PLUGIN_REFUSES = {"dynamic_rank": {"T213"}, "loop_dynamic_rank_state": {"T213", "PM420"}}


def verbose(path: Path) -> list[str]:
    return [f"{d.loc.line}: {d.code} {d.message}" for d in irlint.check(path)
            if d.severity is not Severity.INFO and d.code not in CPU_PLUGIN_LIMITS]


@pytest.mark.parametrize("name", sorted(ONNX_MODELS))
def test_onnx_model_converted_by_openvino_is_clean(name: str, tmp_path: Path) -> None:
    path = to_ir(ONNX_MODELS[name](), tmp_path, name)
    assert verbose(path) == []
    limits = {d.code for d in irlint.check(path) if d.code in CPU_PLUGIN_LIMITS}
    assert limits == CPU_PLUGIN_REFUSES.get(name, set())
    assert all(d.severity is Severity.WARNING for d in irlint.check(path) if d.code in CPU_PLUGIN_LIMITS)


@pytest.mark.parametrize("name", sorted(CPU_PLUGIN_REFUSES))
def test_the_cpu_plugin_refuses_what_irlint_warns_of(name: str, tmp_path: Path) -> None:
    path = to_ir(ONNX_MODELS[name](), tmp_path, name)
    core = ov.Core()
    model = core.read_model(str(path))
    with pytest.raises(RuntimeError, match="dynamic rank"):
        core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})


def test_every_element_type_as_const_and_parameter_is_clean(tmp_path: Path) -> None:
    """A Const (where openvino can make one from numbers) and a Parameter of every type, each to a Result."""
    names = sorted(n for n in dir(ov.Type) if isinstance(getattr(ov.Type, n), ov.Type) and n != "dynamic")
    outs, params = [], []
    for n in names:
        t = getattr(ov.Type, n)
        p = ops.parameter([2, 3], t, name=f"p_{n}")
        params.append(p)
        outs.append(ops.result(p))
        if n == "string":
            outs.append(ops.result(ops.constant(ov.Tensor(np.array(["ab", "", "xyz"])))))
        elif n != "boolean":
            outs.append(ops.result(ops.constant(np.ones((2, 3), np.float32), dtype=t)))
    path = tmp_path / "every_type.xml"
    ov.save_model(ov.Model(outs, params), str(path), compress_to_fp16=False)
    text = path.read_text()
    assert all(f'element_type="{n}"' in text for n in names)
    assert verbose(path) == []


# file -> ((code, line) findings that are real defects of the file, the .bin the test writes or None)
THIRD_PARTY: dict[str, set[tuple[str, int]]] = {
    # the body Parameter fed by a sliced entry is also a back-edge target; OpenVINO runs it and
    # ignores the back edge (each iteration gets its slice)
    "ti_sliced_input.xml": {("BE504", 33)},
    # the body Unsqueeze declares the concatenated shape [3,1,2]; it computes [1,1,2] (OpenVINO
    # re-infers it and runs the model correctly)
    "loop_2d_add.xml": {("T211", 136)},
    "ti_merged_input.xml": set(),
}


def loop_2d_add_bin() -> bytes:
    """The weights of loop_2d_add.xml (not published with it): trip count 3, condition true, the scalar
    added after the loop 0, b = [1, 1], Unsqueeze axis 0 — the values of OpenVINO's ONNX test of that model."""
    return (np.int64(3).tobytes() + b"\x01" + np.float32(0).tobytes() + np.ones(2, np.float32).tobytes()
            + np.int64(0).tobytes())


def _copy(name: str, tmp_path: Path) -> Path:
    path = tmp_path / name
    shutil.copyfile(THIRD_PARTY_DIR / name, path)
    if name == "loop_2d_add.xml":
        path.with_suffix(".bin").write_bytes(loop_2d_add_bin())
    return path


@pytest.mark.parametrize("name", sorted(THIRD_PARTY))
def test_third_party_ir_has_only_its_documented_defects(name: str, tmp_path: Path) -> None:
    assert findings(_copy(name, tmp_path)) == THIRD_PARTY[name]


@pytest.mark.parametrize("name", sorted(THIRD_PARTY))
def test_openvino_reads_and_runs_the_third_party_irs(name: str, tmp_path: Path) -> None:
    """OpenVINO's verdict on each file, quoted in tests/corpus/README.md: read, compiled, run."""
    core = ov.Core()
    model = core.read_model(str(_copy(name, tmp_path)))
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    feed = [np.arange(int(np.prod(i.get_shape())), dtype=np.float32).reshape(i.get_shape()) for i in model.inputs]
    out = [np.asarray(v) for v in compiled(feed).values()]
    if name == "loop_2d_add.xml":  # a + b three times; the Unsqueezed partial sums concatenated
        np.testing.assert_array_equal(out[0], [[3.0, 4.0]])
        np.testing.assert_array_equal(out[1].ravel(), [1.0, 2.0, 2.0, 3.0, 3.0, 4.0])
    else:  # an identity body: the sliced and the merged TI give back their input
        np.testing.assert_array_equal(out[0], feed[0])
