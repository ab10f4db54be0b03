"""The corpus of real IRs (tests/corpus/README.md): what OpenVINO writes must check clean.

- ONNX models (onnx_models.py) converted by `openvino.convert_model` at test time;
- Consts and Parameters of every element type, written by openvino's Python API;
- third-party IRs and ONNX models from OpenVINO's own test sources (thirdparty/, listed in third_party.py),
  each with the findings that are real defects of that file, OpenVINO's measured verdict, and irlint's run
  compared with the CPU plugin's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import DepartureWarning, ExecutionError
from irlint.ir.loader import LoadError
from tests.corpus.onnx_models import ONNX_MODELS, to_ir
from tests.corpus.third_party import IRS, ONNX, nested_if_xml

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
    return [
        f"{d.loc.line}: {d.code} {d.message}"
        for d in irlint.check(path)
        if d.severity is not Severity.INFO and d.code not in CPU_PLUGIN_LIMITS
    ]


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


# ---- third-party models (tests/corpus/third_party.py, the table in tests/corpus/README.md) ----

CPU = {"INFERENCE_PRECISION_HINT": "f32"}


def _copy(name: str, tmp_path: Path, text: str | None = None) -> Path:
    """The IR copied into tmp_path (as it is, or `text`), with the .bin its entry writes."""
    path = tmp_path / name
    if text is None:
        shutil.copyfile(THIRD_PARTY_DIR / name, path)
    else:
        path.write_text(text)
    if IRS[name].weights is not None:
        path.with_suffix(".bin").write_bytes(IRS[name].weights(path))
    return path


def inputs_for(model, fixed, seed: int = 0) -> dict[str, np.ndarray]:
    """`fixed` inputs as given, the others seeded random (normal floats, integers 0..2, booleans true)."""
    rng = np.random.default_rng(seed)
    out = {}
    for p in model.get_parameters():
        name, dtype = p.get_friendly_name(), p.get_element_type().to_dtype()
        shape = [d.get_length() if d.is_static else 2 for d in p.get_partial_shape()]
        if name in fixed:
            out[name] = np.asarray(fixed[name], dtype).reshape(shape)
        elif dtype == np.bool_:
            out[name] = np.ones(shape, bool)
        else:
            out[name] = (rng.standard_normal(shape) if dtype.kind == "f" else rng.integers(0, 3, shape)).astype(dtype)
    return out


def assert_runs_as_the_cpu_plugin(path: Path, fixed=None) -> None:
    """irlint's run of `path` against OpenVINO's CPU plugin (f32), output by output (rtol 1e-4, atol 1e-5)."""
    core = ov.Core()
    model = core.read_model(str(path))
    inputs = inputs_for(model, fixed or {})
    want = core.compile_model(model, "CPU", CPU)([inputs[p.get_friendly_name()] for p in model.get_parameters()])
    got = irlint.run(path, inputs)
    for i, result in enumerate(model.get_results()):
        name, w = result.get_friendly_name(), np.asarray(want[i])
        assert got[name].shape == w.shape, f"{name}: irlint {got[name].shape}, OpenVINO {w.shape}"
        if np.issubdtype(w.dtype, np.floating):
            np.testing.assert_allclose(got[name], w, rtol=1e-4, atol=1e-5, err_msg=name)
        else:
            np.testing.assert_array_equal(got[name], w, err_msg=name)


def _disputed(names, disputed_of) -> list:
    """Parameters: the names whose entry lists a disputed finding are xfail (strict), with the reasons."""
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="; ".join(disputed_of(n).values())))
        if disputed_of(n)
        else n
        for n in sorted(names)
    ]


@pytest.mark.parametrize("name", _disputed(IRS, lambda n: IRS[n].disputed))
def test_third_party_ir_has_only_its_documented_defects(name: str, tmp_path: Path) -> None:
    assert findings(_copy(name, tmp_path)) == IRS[name].defects


@pytest.mark.parametrize("name", sorted(IRS))
def test_openvino_verdict_on_the_third_party_irs(name: str, tmp_path: Path) -> None:
    """OpenVINO 2026 reads each file; it compiles and runs it, or refuses it where the entry says."""
    core = ov.Core()
    model = core.read_model(str(_copy(name, tmp_path)))
    refused = IRS[name].refused
    if refused and refused[0] == "compile":
        with pytest.raises(RuntimeError, match=refused[1]):
            core.compile_model(model, "CPU", CPU)
        return
    compiled = core.compile_model(model, "CPU", CPU)
    inputs = inputs_for(model, IRS[name].inputs)
    feed = [inputs[p.get_friendly_name()] for p in model.get_parameters()]
    if refused:
        with pytest.raises(RuntimeError, match=refused[1]):
            compiled(feed)
    else:
        assert len(compiled(feed)) == len(model.outputs)


RUNNABLE = sorted(n for n in IRS if IRS[n].refused is None and ("IR001", 1) not in IRS[n].defects)


@pytest.mark.parametrize("name", RUNNABLE)
def test_irlint_runs_the_third_party_irs_as_the_cpu_plugin(name: str, tmp_path: Path) -> None:
    assert_runs_as_the_cpu_plugin(_copy(name, tmp_path), IRS[name].inputs)


def test_known_values_of_the_third_party_loops(tmp_path: Path) -> None:
    """loop_2d_add: a + b three times, the Unsqueezed partial sums concatenated; the TIs with identity bodies
    give back their input; the yolo arange Loop counts from its start by its delta."""
    core = ov.Core()
    out = core.compile_model(core.read_model(str(_copy("loop_2d_add.xml", tmp_path))), "CPU", CPU)(
        [np.arange(2, dtype=np.float32).reshape(1, 2)]
    )
    np.testing.assert_array_equal(out[0], [[3.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(out[1]).ravel(), [1.0, 2.0, 2.0, 3.0, 3.0, 4.0])
    x = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    for name in ("ti_merged_input.xml", "ti_sliced_input.xml"):
        np.testing.assert_array_equal(irlint.run(_copy(name, tmp_path), {"Parameter1": x})["Result1"], x)
    yolo, const = "TFNodes/yolo_evaluation_layer_1/", "/Output_0/Data__const"
    got = irlint.run(
        _copy("loop_yolo_arange.xml", tmp_path),
        {
            yolo + "arange_4__77_trip_cnt/placeholder_port_0": np.float32(4),
            yolo + "arange__271_cond" + const: True,
            yolo + "arange_5/start:0" + const: np.int32(5),
            yolo + "arange_5/delta:0" + const: np.int32(-2),
        },
    )
    np.testing.assert_array_equal(next(iter(got.values())), [5, 3, 1, -1])


def test_an_xml_declaration_after_white_space(tmp_path: Path) -> None:
    """ti_gru_cell.xml starts "    <?xml": OpenVINO reads it, irlint reports IR001 and refuses to run it; without
    the leading white space it lints clean and runs as the CPU plugin runs it."""
    text = (THIRD_PARTY_DIR / "ti_gru_cell.xml").read_text()
    assert text.startswith("    <?xml")
    path = _copy("ti_gru_cell.xml", tmp_path)
    ov.Core().read_model(str(path))
    assert findings(path) == {("IR001", 1)}
    (tmp_path / "stripped").mkdir()
    stripped = _copy("ti_gru_cell.xml", tmp_path / "stripped", text.lstrip())
    assert findings(stripped) == set()
    assert_runs_as_the_cpu_plugin(stripped)


def test_run_refuses_a_file_it_cannot_parse(tmp_path: Path) -> None:
    """As the CLI does (exit 2): a Model of 0 layers would run and return nothing."""
    path = _copy("ti_gru_cell.xml", tmp_path)
    for call in (irlint.run, irlint.step, irlint.trace):
        with pytest.raises(LoadError, match="IR001"):
            call(path, {})


def test_a_loop_of_zero_iterations_runs_as_the_cpu_plugin(tmp_path: Path) -> None:
    assert_runs_as_the_cpu_plugin(
        _copy("loop_2d_add_inputs.xml", tmp_path), {"trip_count/Output_0/Data__const": np.array([0], np.int64)}
    )


def test_an_if_output_entry_is_mapped_by_order(tmp_path: Path) -> None:
    """if_body_without_parameters.xml with a condition of one element ([1,1] inputs) instead of none: its branch
    output entries name port 0, the If's output is port 1; OpenVINO maps them by order and so does the run,
    with a DepartureWarning per branch taken, and IF801 says so."""
    text = (THIRD_PARTY_DIR / "if_body_without_parameters.xml").read_text()
    text = text.replace('shape="1,0"', 'shape="1,1"').replace("<dim>0</dim>", "<dim>1</dim>")
    path = _copy("if_body_without_parameters.xml", tmp_path, text)
    with pytest.warns(DepartureWarning, match=r"order of their ids \(external_port_id 0 -> port 1\)"):
        assert_runs_as_the_cpu_plugin(path)
    assert findings(path) == {("IF801", 75), ("IF801", 78)}
    assert all("this entry gives output port 1" in d.message for d in irlint.check(path) if d.code == "IF801")


# ---- third-party ONNX models, converted by OpenVINO at test time ----


def onnx_ir(name: str, tmp_path: Path) -> Path:
    from google.protobuf import text_format

    onnx = pytest.importorskip("onnx")
    model = text_format.Parse((THIRD_PARTY_DIR / "onnx" / f"{name}.prototxt").read_text(), onnx.ModelProto())
    return to_ir(model, tmp_path, name)


@pytest.mark.parametrize("name", _disputed(ONNX, lambda n: ONNX[n].disputed))
def test_third_party_onnx_model_converted_by_openvino_gets_its_findings(name: str, tmp_path: Path) -> None:
    path = onnx_ir(name, tmp_path)
    assert {code for code, _ in findings(path)} == ONNX[name].codes | set(ONNX[name].disputed)


@pytest.mark.parametrize("name", sorted(n for n in ONNX if ONNX[n].irlint_refuses is None))
def test_irlint_runs_the_third_party_onnx_models_as_the_cpu_plugin(name: str, tmp_path: Path) -> None:
    path, entry = onnx_ir(name, tmp_path), ONNX[name]
    if entry.refused:
        with pytest.raises(RuntimeError, match=entry.refused[1]):
            ov.Core().compile_model(str(path), "CPU", CPU)
        return
    for fixed in entry.inputs:
        assert_runs_as_the_cpu_plugin(path, fixed)


@pytest.mark.parametrize("name", sorted(n for n in ONNX if ONNX[n].irlint_refuses))
def test_irlint_refuses_what_it_cannot_run_with_an_execution_error(name: str, tmp_path: Path) -> None:
    path = onnx_ir(name, tmp_path)
    code, _why = ONNX[name].irlint_refuses  # type: ignore[misc]
    with pytest.raises(ExecutionError) as caught:
        irlint.run(path, inputs_for(ov.Core().read_model(str(path)), ONNX[name].inputs[0]))
    assert caught.value.code == code


# ---- OpenVINO's nested-If reader test, rebuilt (third_party.nested_if_xml) ----


def _nested_if(depth: int, tmp_path: Path) -> Path:
    path = tmp_path / f"nested_if_{depth}.xml"
    path.write_text(nested_if_xml(depth))
    path.with_suffix(".bin").write_bytes(b"\x01")
    return path


def test_nested_ifs_run_as_the_cpu_plugin(tmp_path: Path) -> None:
    """Eight deep: clean, and computed as the CPU plugin computes it (its compile time doubles with each level
    past about 14: 6 s at 18, 23 s at 20)."""
    path = _nested_if(8, tmp_path)
    assert findings(path) == set()
    assert_runs_as_the_cpu_plugin(path)


def test_nested_ifs_at_openvinos_limit_and_past_it(tmp_path: Path) -> None:
    """64 deep, the most OpenVINO's reader takes: clean and run; 1024 deep (OpenVINO 2026.4's read_model does
    not return within minutes, newer readers refuse it): irlint refuses the document, IR001."""
    path = _nested_if(64, tmp_path)
    assert findings(path) == set()
    np.testing.assert_array_equal(irlint.run(path, {"input": np.float32([1.5])})["output"], [1.5])
    assert {code for code, _ in findings(_nested_if(1024, tmp_path))} == {"IR001"}
