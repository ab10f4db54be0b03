"""Every fixable rule: a fixture broken from a model OpenVINO wrote -> `--fix` -> the expected repaired
file, which checks clean and which OpenVINO reads, compiles and runs with the original's outputs."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from irlint.api import check
from irlint.cli.main import main
from irlint.fix import fix_file, fixable_codes
from irlint.fix.registry import PROVIDERS, Fix

pytestmark = pytest.mark.openvino

ov = pytest.importorskip("openvino")


def build_model():
    """small_ti's TensorIterator with every layer named (OpenVINO's automatic names depend on what the
    process built before, and the fixtures anchor their edits on names)."""
    import openvino.opset13 as ops

    x = ops.parameter([1, 5, 4], np.float32, name="X")
    h = ops.parameter([1, 3], np.float32, name="H")
    xi = ops.parameter([1, 1, 4], np.float32, name="Parameter_3")
    hi = ops.parameter([1, 3], np.float32, name="Parameter_4")
    r = ops.reshape(xi, ops.constant(np.array([1, 4], np.int64), name="Constant_6"), False, name="Reshape_7")
    w = ops.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3), name="Constant_9")
    h2 = ops.tanh(ops.add(ops.matmul(r, w, False, False, name="MatMul_10"), hi, name="Add_11"), name="Tanh")
    ro = ops.result(h2, name="ro")
    rs = ops.result(ops.unsqueeze(h2, ops.constant(np.array([1], np.int64), name="axes"), name="Unsq"), name="rs")
    ti = ops.tensor_iterator()
    ti.set_friendly_name("TI")
    ti.set_body(ov.Model([ro, rs], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    last = ti.get_iter_value(ro.output(0), -1)
    allh = ti.get_concatenated_slices(rs.output(0), 0, 1, 1, -1, 1)
    return ov.Model([ops.result(last, name="last"), ops.result(allh, name="all")], [x, h], "fixable")


@pytest.fixture(scope="module")
def small_ti(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fixable") / "fixable.xml"
    ov.save_model(build_model(), str(path), compress_to_fp16=False)
    return path


def edit_after(text: str, anchor: str, old: str, new: str, nth: int = 0) -> str:
    """Replace the `nth` occurrence of `old` after `anchor` (unique anchors keep fixtures readable)."""
    start = text.index(anchor)
    at = text.index(old, start)
    for _ in range(nth):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old):]


MATMUL_OUT = '<port id="2" precision="FP32">\n\t\t\t\t\t\t\t\t<dim>1</dim>\n\t\t\t\t\t\t\t\t<dim>3</dim>'

# (case id, rule, edits [(anchor, old, new, nth)], needs --unsafe-fixes)
CASES = [
    ("T211-dim", "T211", [('name="MatMul_10"', "<dim>3</dim>", "<dim>7</dim>", 1)], False),
    ("T211-rank", "T211", [('name="MatMul_10"', MATMUL_OUT, MATMUL_OUT + "\n\t\t\t\t\t\t\t\t<dim>1</dim>", 0)],
     False),
    ("T211-precision", "T211", [('name="MatMul_10"', 'id="2" precision="FP32"', 'id="2" precision="FP16"', 0)],
     False),
    ("T201", "T201", [('name="Add_11"', 'precision="FP32"', 'precision="I32"', 0)], False),
    ("T202-dim", "T202", [('name="Add_11"', "<dim>3</dim>", "<dim>4</dim>", 0)], False),
    ("T202-rank", "T202", [('name="Add_11"', "<dim>1</dim>\n\t\t\t\t\t\t\t\t", "", 0)], False),
    ("SL605", "SL605", [('name="Parameter_3"', 'shape="1,1,4"', 'shape="1,5,4"', 0),
                        ('name="Parameter_3"', "<dim>1</dim>", "<dim>5</dim>", 1)], False),
    ("SL606", "SL606", [('names="all"', "<dim>5</dim>", "<dim>4</dim>", 0)], False),
    ("W303-large", "W303", [('name="Constant_6"', 'size="16"', 'size="24"', 0)], False),
    ("W303-small", "W303", [('name="Constant_9"', 'size="48"', 'size="40"', 0)], True),
]


@pytest.fixture
def fixture_copy(small_ti: Path, tmp_path: Path):
    def make(edits, name: str = "model") -> Path:
        text = small_ti.read_text()
        for anchor, old, new, nth in edits:
            text = edit_after(text, anchor, old, new, nth)
        assert text != small_ti.read_text()
        out = tmp_path / f"{name}.xml"
        out.write_text(text)
        shutil.copy(small_ti.with_suffix(".bin"), tmp_path / f"{name}.bin")
        return out

    return make


def ov_outputs(path: Path, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    core = ov.Core()
    model = core.read_model(str(path))
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    res = compiled.create_infer_request().infer({p.get_any_name(): inputs[p.get_any_name()] for p in model.inputs})
    return {o.get_any_name(): np.array(res[o]) for o in compiled.outputs}


def test_every_provider_has_a_case() -> None:
    assert {c[1] for c in CASES} == set(fixable_codes())


@pytest.mark.parametrize(("case", "code", "edits", "unsafe"), CASES, ids=[c[0] for c in CASES])
def test_fix_repairs_the_fixture(case: str, code: str, edits, unsafe: bool, fixture_copy, small_ti: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture_copy(edits)
    broken = path.read_bytes()
    bin_before = path.with_suffix(".bin").read_bytes()
    assert code in {d.code for d in check(path)}, "the fixture must trigger the rule"
    if unsafe:  # without --unsafe-fixes the file is left alone
        assert main(["check", "--fix", str(path)]) == 1
        assert path.read_bytes() == broken
    args = ["check", "--fix", "--show-fixes", *(["--unsafe-fixes"] if unsafe else []), str(path)]
    assert main(args) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert f"{path}: {code} " in out and "All checks passed" in out
    assert path.read_bytes() == small_ti.read_bytes(), "the repaired file is the file OpenVINO wrote"
    assert path.with_suffix(".bin").read_bytes() == bin_before
    assert check(path) == []
    assert sorted(p.name for p in path.parent.iterdir()) == ["model.bin", "model.xml"]  # no temp file left
    rng = np.random.default_rng(0)
    inputs = {"X": rng.standard_normal((1, 5, 4)).astype(np.float32),
              "H": rng.standard_normal((1, 3)).astype(np.float32)}
    want, got = ov_outputs(small_ti, inputs), ov_outputs(path, inputs)
    assert want.keys() == got.keys() == {"last", "all"}
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6, atol=1e-6)


def test_diff_changes_nothing(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture_copy(CASES[0][2])
    before = path.read_bytes()
    files = sorted(path.parent.iterdir())
    assert main(["check", "--diff", str(path)]) == 1
    out = capsys.readouterr()
    assert "-\t\t\t\t\t\t\t\t<dim>7</dim>\n+\t\t\t\t\t\t\t\t<dim>3</dim>\n" in out.out
    assert "Would fix" in out.err
    assert path.read_bytes() == before and sorted(path.parent.iterdir()) == files
    assert main(["check", "--fix", str(path)]) == 0
    capsys.readouterr()
    assert main(["check", "--diff", str(path)]) == 0  # nothing left to fix
    assert capsys.readouterr().out == ""


def test_fix_keeps_unfixable_findings(broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy('to-layer="6" to-port="1"', 'to-layer="6" to-port="7"')
    before = path.read_bytes()
    assert main(["check", "--fix", str(path)]) == 1
    assert "G103" in capsys.readouterr().out
    assert path.read_bytes() == before


def test_fix_that_does_not_repair_is_dropped(fixture_copy, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fixture_copy(CASES[0][2])
    info, real = PROVIDERS["T211"]

    def useless(fc, d):  # rewrites a name: the finding stays
        fix = real(fc, d)
        layer = fc.layer(d.layer)
        from irlint.fix.xmltext import Tag

        return Fix(fix.code, fix.layer, fix.port, (Tag(fc.data, layer.at).set_attr("name", "renamed"),),
                   "rename", True)

    monkeypatch.setitem(PROVIDERS, "T211", (info, useless))
    out = fix_file(str(path))
    assert not out.changed and out.applied == [] and {d.code for d in out.diagnostics} == {"T211", "T202"}


def test_fix_that_adds_a_finding_is_withheld(fixture_copy, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fixture_copy(CASES[0][2])
    info, real = PROVIDERS["T211"]

    def harmful(fc, d):  # repairs the port, and breaks the Parameter X's declaration
        fix = real(fc, d)
        x = fc.layer("0")
        from irlint.fix.xmltext import Tag

        bad = Tag(fc.data, fc.data_at(x)).set_attr("element_type", "i32")
        return Fix(fix.code, fix.layer, fix.port, (*fix.edits, bad), "harm", True)

    monkeypatch.setitem(PROVIDERS, "T211", (info, harmful))
    before = path.read_bytes()
    out = fix_file(str(path))
    assert not out.changed and out.withheld and "T203" in out.withheld
    assert main(["check", "--fix", str(path)]) == 1
    assert path.read_bytes() == before
