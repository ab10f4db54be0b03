"""Every fixable rule: a fixture broken from a model OpenVINO wrote -> `--fix` -> the expected repaired
file, which checks clean and which OpenVINO reads, compiles and runs with the original's outputs."""

from __future__ import annotations

import json
import re
import shutil
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from irlint.api import check
from irlint.cli.main import main
from irlint.fix import fix_file, fixable_codes
from irlint.fix.registry import PROVIDERS, Fix
from tests.conftest import build_small_ti

pytestmark = pytest.mark.openvino

ov = pytest.importorskip("openvino")


def build_loop():
    """A Loop with a current_iteration Parameter and a constant-true body condition, every layer named."""
    import openvino.opset13 as ops

    x = ops.parameter([1, 4, 3], np.float32, name="X")
    xi = ops.parameter([1, 1, 3], np.float32, name="xi")
    it = ops.parameter([1], np.int64, name="it")
    y = ops.add(ops.relu(xi, name="relu"), ops.convert(it, np.float32, name="cvt"), name="add")
    body_out = ops.result(y, name="body_out")
    cond = ops.result(ops.constant(np.array([True]), name="true"), name="cond")
    loop = ops.loop(ops.constant(np.array(4, np.int64), name="trip"), ops.constant(np.array(True), name="exec"))
    loop.set_friendly_name("L")
    loop.set_function(ov.Model([body_out, cond], [xi, it]))
    loop.set_special_body_ports([1, 1])
    loop.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    out = loop.get_concatenated_slices(body_out.output(0), 0, 1, 1, -1, 1)
    return ov.Model([ops.result(out, name="y")], [x], "loop")


def build_parts():
    """A TensorIterator reading its input two elements at a time (part_size 2, stride 2)."""
    import openvino.opset13 as ops

    x = ops.parameter([1, 6, 4], np.float32, name="X")
    xi = ops.parameter([1, 2, 4], np.float32, name="xi")
    s = ops.reduce_sum(xi, ops.constant(np.array([1], np.int64), name="ax"), False, name="sum")
    r = ops.result(ops.unsqueeze(ops.relu(s, name="relu"), ops.constant(np.array([1], np.int64), name="ax2"),
                                 name="unsq"), name="r")
    ti = ops.tensor_iterator()
    ti.set_friendly_name("TI")
    ti.set_body(ov.Model([r], [xi]))
    ti.set_sliced_input(xi, x.output(0), 0, 2, 2, -1, 1)
    out = ti.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 1)
    return ov.Model([ops.result(out, name="y")], [x], "parts")


BUILDERS = {"ti": partial(build_small_ti, named=True), "loop": build_loop, "parts": build_parts}


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("fixable")
    out = {}
    for name, build in BUILDERS.items():
        out[name] = d / f"{name}.xml"
        ov.save_model(build(), str(out[name]), compress_to_fp16=False)
    return out


@pytest.fixture
def small_ti(originals: dict[str, Path]) -> Path:
    return originals["ti"]


def edit_after(text: str, anchor: str, old: str, new: str, nth: int = 0) -> str:
    """Replace the `nth` occurrence of `old` after `anchor` (unique anchors keep fixtures readable)."""
    start = text.index(anchor)
    at = text.index(old, start)
    for _ in range(nth):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old):]


MATMUL_OUT = '<port id="2" precision="FP32">\n\t\t\t\t\t\t\t\t<dim>1</dim>\n\t\t\t\t\t\t\t\t<dim>3</dim>'

# (case id, rule, edits [(anchor, old, new, nth)], needs --unsafe-fixes[, model: "ti" unless given])
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
    ("PM405", "PM405", [('<output external_port_id="2"', 'internal_layer_id="10"', 'internal_layer_id="9"', 0)],
     True),
    ("PM404", "PM404", [('<output axis="1" external_port_id="3"', 'internal_layer_id="11"',
                         'internal_layer_id="12"', 0)], True),
    ("PM401", "PM401", [('<input external_port_id="1"', 'external_port_id="1"', 'external_port_id="2"', 0)], True),
    ("BE501", "BE501", [("<back_edges>", 'from-layer="10"', 'from-layer="9"', 0)], True),
    ("BE502", "BE502", [("<back_edges>", 'to-layer="1"', 'to-layer="2"', 0)], True),
    ("SL603", "SL603", [('<input axis="1" external_port_id="0"', 'part_size="1"', 'part_size="2"', 0)], True),
    ("SL605-part_size", "SL605", [('<input axis="1" external_port_id="0"', ' part_size="2"', "", 0)], True, "parts"),
    ("LP703", "LP703", [('<output external_port_id="-1"', ' purpose="execution_condition"', "", 0)], False, "loop"),
    ("PM406", "PM406", [('<input external_port_id="-1"', ' purpose="current_iteration"', "", 0)], False, "loop"),
]


def edits_of(case_id: str):
    return next(c[2] for c in CASES if c[0] == case_id)


@pytest.fixture
def fixture_copy(originals: dict[str, Path], tmp_path: Path):
    def make(edits, name: str = "model", model: str = "ti") -> Path:
        source = originals[model]
        text = source.read_text()
        for anchor, old, new, nth in edits:
            text = edit_after(text, anchor, old, new, nth)
        assert text != source.read_text()
        out = tmp_path / f"{name}.xml"
        out.write_text(text)
        shutil.copy(source.with_suffix(".bin"), tmp_path / f"{name}.bin")
        return out

    return make


def ov_outputs(path: Path) -> dict[str, np.ndarray]:
    """OpenVINO's CPU plugin (f32) on `path` with seeded random inputs of the model's own shapes."""
    core = ov.Core()
    model = core.read_model(str(path))
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    rng = np.random.default_rng(0)
    feed = {p.get_any_name(): rng.standard_normal(list(p.get_shape())).astype(np.float32) for p in model.inputs}
    res = compiled.create_infer_request().infer(feed)
    return {o.get_any_name(): np.array(res[o]) for o in compiled.outputs}


def test_every_provider_has_a_case() -> None:
    assert {c[1] for c in CASES} == set(fixable_codes())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_fix_repairs_the_fixture(case, fixture_copy, originals: dict[str, Path],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    _id, code, edits, unsafe, *rest = case
    original = originals[rest[0] if rest else "ti"]
    path = fixture_copy(edits, model=rest[0] if rest else "ti")
    broken = path.read_bytes()
    bin_before = path.with_suffix(".bin").read_bytes()
    found = check(path)  # the rule's finding, or a note of the finding it follows from (LP703 of PM406)
    noted = {m.group(1) or m.group(2) for d in found for n in d.related
             if (m := re.match(r"this also (?:gives (\w+):|.* \((\w+)\)$)", n.note))}
    assert code in {d.code for d in found} | noted, "the fixture must trigger the rule"
    if unsafe:  # without --unsafe-fixes the guess is not made (the file is left alone, or repaired otherwise)
        main(["check", "--fix", str(path)])
        assert path.read_bytes() != original.read_bytes()
        path.write_bytes(broken)
    capsys.readouterr()
    args = ["check", "--fix", "--show-fixes", *(["--unsafe-fixes"] if unsafe else []), str(path)]
    assert main(args) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert f"{path}: {code} " in out and "All checks passed" in out
    assert path.read_bytes() == original.read_bytes(), "the repaired file is the file OpenVINO wrote"
    assert path.with_suffix(".bin").read_bytes() == bin_before
    assert check(path) == []
    assert sorted(p.name for p in path.parent.iterdir()) == ["model.bin", "model.xml"]  # no temp file left
    want, got = ov_outputs(original), ov_outputs(path)
    assert want.keys() == got.keys() and want
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6, atol=1e-6)


def test_safe_fix_keeps_what_openvino_computes(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    """Safe fixes only rewrite what OpenVINO ignores: the broken file and the fixed one compute the same."""
    path = fixture_copy([('names="all"', "<dim>5</dim>", "<dim>4</dim>", 0),
                         ('name="MatMul_10"', "<dim>3</dim>", "<dim>7</dim>", 1)])
    broken = ov_outputs(path)
    assert main(["check", "--fix", str(path)]) == 0
    fixed = ov_outputs(path)
    for k in broken:
        np.testing.assert_array_equal(fixed[k], broken[k])


def test_part_size_safe_and_unsafe(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing part_size: the safe fix declares what OpenVINO computes (1-element slices, 6 iterations), the
    unsafe one restores part_size 2 (the body was written for it)."""
    path = fixture_copy([('<input axis="1" external_port_id="0"', ' part_size="2"', "", 0)], model="parts")
    assert main(["check", "--fix", "--show-fixes", str(path)]) == 0
    out = capsys.readouterr().out
    assert "SL605" in out and "SL606" in out
    text = path.read_text()
    entry = next(line for line in text.splitlines() if '<input axis="1" external_port_id="0"' in line)
    assert 'shape="1,1,4"' in text and "part_size" not in entry
    assert [d.code for d in check(path)] == ["SL607"]  # the CPU plugin's reading still differs: a warning


def test_diff_changes_nothing(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture_copy(edits_of("T211-dim"))
    before = path.read_bytes()
    files = sorted(path.parent.iterdir())
    assert main(["check", "--diff", "--show-fixes", str(path)]) == 1
    out = capsys.readouterr()
    assert f"{path}: T211 " in out.err
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
    path = fixture_copy(edits_of("T211-dim"))
    info, real = PROVIDERS["T211"]

    def useless(fc, d):  # rewrites a name: the finding stays
        fix = real(fc, d)
        layer = fc.layer(d.layer)
        from irlint.fix.xmltext import Tag

        return Fix(fix.code, fix.layer, fix.port, (Tag(fc.data, layer.at).set_attr("name", "renamed"),),
                   "rename", True)

    monkeypatch.setitem(PROVIDERS, "T211", (info, useless))
    out = fix_file(str(path))
    assert not out.changed and out.applied == [] and {d.code for d in out.diagnostics} == {"T211"}  # T202: a note


def test_fix_that_adds_a_finding_is_withheld(fixture_copy, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fixture_copy(edits_of("T211-dim"))
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


def test_fix_in_parallel_with_json(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    """-j 2 fixes files in worker processes; with a machine format the fix summary goes to stderr."""
    a = fixture_copy(edits_of("T211-dim"), name="a")
    b = fixture_copy(edits_of("SL605"), name="b")
    assert main(["check", "-j", "2", "--fix", "--show-fixes", "--format", "json", str(a), str(b)]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == []
    assert f"{a}: T211" in out.err and f"{b}: SL605" in out.err and "in 2 files" in out.err
    assert check(a) == [] and check(b) == []


def test_statistics_after_fix_counts_what_is_left(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture_copy(edits_of("W303-small"))  # W303 too small: unsafe, so --fix leaves it
    assert main(["check", "--fix", "--statistics", "--format", "json", str(path)]) == 1
    rows = json.loads(capsys.readouterr().out)
    # W303's fix is unsafe: without --unsafe-fixes it does not apply, so the code is not fixable
    assert {r["code"] for r in rows} >= {"W303"} and not any(r["fixable"] for r in rows if r["code"] == "W303")


def test_fixes_that_only_unsafe_fixes_would_apply_are_said_so(fixture_copy,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """As ruff: a finding whose only fix is unsafe is not marked fixable, and --fix/--diff say why they
    change nothing."""
    path = fixture_copy(edits_of("W303-small"))
    before = path.read_bytes()
    assert main(["check", "--statistics", str(path)]) == 1
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if " W303 " in f" {line} ")
    assert "[*]" not in row and "No fixes available (1 with --unsafe-fixes)." in out
    assert main(["check", "--diff", str(path)]) == 0
    out = capsys.readouterr()
    assert out.out == "" and "no fixes available (1 with --unsafe-fixes)" in out.err
    assert main(["check", "--fix", str(path)]) == 1
    out = capsys.readouterr()
    assert "no fixes available (1 with --unsafe-fixes)" in out.out + out.err and path.read_bytes() == before
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "W303 [*]" not in out and "No fixes available (1 with --unsafe-fixes)." in out


def test_the_text_report_marks_each_fixable_finding(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture_copy(edits_of("T211-dim"))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "T211 [*] [error]" in out and "[*] 1 fixable with `irlint check --fix`." in out
    assert main(["check", "--statistics", str(path)]) == 1
    assert "[*] fixable with `irlint check --fix`" in capsys.readouterr().out


def test_the_concise_report_marks_each_fixable_finding(fixture_copy, capsys: pytest.CaptureFixture[str]) -> None:
    """As the text report: `[*]` on the finding `--fix` repairs, none on one whose only fix is unsafe."""
    path = fixture_copy(edits_of("T211-dim"))
    assert main(["check", "--format", "concise", str(path)]) == 1
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if " T211 " in line)
    assert " T211 [*] [error] " in row and "[*] 1 fixable with `irlint check --fix`." in out
    unsafe = fixture_copy(edits_of("W303-small"), name="unsafe")
    assert main(["check", "--format", "concise", str(unsafe)]) == 1
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if " W303 " in line)
    assert "[*]" not in row and "No fixes available (1 with --unsafe-fixes)." in out


def test_fix_writes_through_links_and_respects_read_only(fixture_copy, originals: dict[str, Path],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture_copy(edits_of("T211-dim"))
    link = path.parent / "link.xml"
    link.symlink_to(path.name)
    shutil.copy(path.with_suffix(".bin"), link.with_suffix(".bin"))
    assert main(["check", "--fix", str(link)]) == 0
    assert link.is_symlink() and path.read_bytes() == originals["ti"].read_bytes()
    other = fixture_copy(edits_of("T211-dim"), name="ro")
    before = other.read_bytes()
    other.chmod(0o444)
    try:
        assert main(["check", "--fix", str(other)]) == 2
        assert "not writable" in capsys.readouterr().err and other.read_bytes() == before
    finally:
        other.chmod(0o644)


def test_per_file_ignored_findings_are_not_fixed(fixture_copy, originals: dict[str, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = fixture_copy(edits_of("SL606"))
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    old = legacy / "old.xml"
    shutil.copy(path, old)
    shutil.copy(path.with_suffix(".bin"), old.with_suffix(".bin"))
    (tmp_path / "pyproject.toml").write_text('[tool.irlint]\nper-file-ignores = {"legacy/**" = ["SL606", "T202"]}\n')
    before = old.read_bytes()
    assert main(["check", "--fix", str(tmp_path)]) == 0
    assert old.read_bytes() == before  # ignored there: not touched
    assert path.read_bytes() == originals["ti"].read_bytes()


def test_edge_shape_copied_from_the_producer_is_unsafe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """T202 where inference knows less than the producer declares (a dynamic batch): copying the producer's
    static dims into the consumer is a guess, made only with --unsafe-fixes."""
    import openvino.opset13 as ops

    original = tmp_path / "dyn.xml"
    x = ops.parameter([-1, 3], np.float32, name="X")
    ov.save_model(ov.Model([ops.result(ops.relu(x, name="relu"), name="y")], [x], "dyn"), str(original))
    text = original.read_text()
    expected = edit_after(text, 'name="relu"', "<dim>-1</dim>", "<dim>2</dim>", 1)  # relu's output port
    expected = edit_after(expected, 'name="y" type="Result"', "<dim>-1</dim>", "<dim>2</dim>")
    path = tmp_path / "model.xml"
    path.write_text(edit_after(expected, 'name="y" type="Result"', "<dim>3</dim>", "<dim>4</dim>"))
    assert [d.code for d in check(path)] == ["T202"]
    broken = path.read_bytes()
    assert main(["check", "--fix", str(path)]) == 1 and path.read_bytes() == broken
    assert main(["check", "--fix", "--unsafe-fixes", "--show-fixes", str(path)]) == 0
    assert "(unsafe)" in capsys.readouterr().out
    assert path.read_text() == expected and check(path) == []
    feed = {"X": np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)}
    core = ov.Core()
    outs = [core.compile_model(core.read_model(str(p)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(feed)
            for p in (original, path)]
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
