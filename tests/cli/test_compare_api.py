"""`irlint.compare`, the Python API under `irlint compare`: what changed between two IRs comes first
(a body Const's bytes, a layer's type, a rename), the two-model JSON speaks of "a" and "b", and the
smaller promises (equal infinities agree, a lone huge layer does not push out the others, the exit
codes of a missing .bin, an .npz given as B, a B with other input shapes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from irlint.comparison import CompareError, Comparison, compare
from irlint.comparison.record import Recorder
from irlint.comparison.stats import error_row
from tests.cli.compare_models import _ti, save, scaled_ti

pytest.importorskip("openvino")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
X = {"X": np.linspace(-1, 1, 18, dtype=np.float32).reshape(1, 6, 3)}


def _two(tmp_path: Path, a, b) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    return str(save(a, tmp_path / "a.xml")), str(save(b, tmp_path / "b.xml"))


def _op_ti(kind: str, name: str = "combine"):  # type: ignore[no-untyped-def]
    import openvino.opset13 as ops

    def body(xi):  # type: ignore[no-untyped-def]
        c = ops.constant(np.array(0.25, np.float32))
        op = ops.add if kind == "add" else ops.subtract
        return ops.tanh(op(xi, c, name=name), name="squash")

    return _ti(body, [1, 6, 3], np.float32, "op_ti")


def test_a_changed_body_constant_is_named_before_the_numbers(tmp_path: Path) -> None:
    a, b = _two(tmp_path, scaled_ti(0.5), scaled_ti(0.5001))
    result = compare(a, X, b)
    assert isinstance(result, Comparison) and result.mode == "two" and not result.ok
    (change,) = result.report["changes"]
    assert (change["kind"], change["what"], change["read_by"]) == ("const", "bytes", ["scale:1"])
    assert change["elements_changed"] == 1 and change["max_abs"] == pytest.approx(1e-4, rel=1e-3)
    text = result.text()
    assert text.index("read by scale:1") < text.index("first layer where A and B part")


def test_a_changed_layer_type_is_named_with_both_types(tmp_path: Path) -> None:
    a, b = _two(tmp_path, _op_ti("add"), _op_ti("subtract"))
    result = compare(a, X, b)
    (change,) = [c for c in result.report["changes"] if c["kind"] == "type"]
    assert (change["layer"], change["a"], change["b"]) == ("combine", "Add (opset1)", "Subtract (opset1)")
    first = result.report["first_difference"]
    assert (first["layer"], first["type"], first["type_b"]) == ("combine", "Add", "Subtract")
    assert "(Add in A, Subtract in B, A 1/body/" in result.text()
    out = result.to_json()["outputs"][0]["first_difference"]
    assert set(out) >= {"a", "b"} and not {"ours", "openvino"} & set(out)  # two models: "a" and "b"


def test_a_renamed_body_layer_is_matched_and_said(tmp_path: Path) -> None:
    a, b = _two(tmp_path, _op_ti("add"), _op_ti("add", name="combine_renamed"))
    result = compare(a, X, b)
    (change,) = result.report["changes"]
    assert (change["kind"], change["a"], change["b"]) == ("renamed", "combine", "combine_renamed")
    assert result.ok and result.report["unmatched"]["only_in_a"] == []
    assert "renamed: 'combine' in A is 'combine_renamed' in B" in result.text()
    assert {x["layer"] for x in result.report["layers"]} >= {"combine", "squash"}


def test_identical_models_have_no_changes(tmp_path: Path) -> None:
    a = str(save(scaled_ti(0.5), tmp_path / "a.xml"))
    result = compare(a, X, a)
    assert result.ok and result.report["changes"] == []
    assert "changes: none" in result.text()


def test_api_usage_errors(tmp_path: Path) -> None:
    a = str(save(scaled_ti(0.5), tmp_path / "a.xml"))
    with pytest.raises(CompareError, match="inputs"):
        compare(a, {"Y": X["X"]}, a)
    with pytest.raises(CompareError, match="two models"):
        compare(a, X, openvino=True)
    with pytest.raises(CompareError, match="precision"):
        compare(a, X, precision="f64")


def test_against_openvino_through_the_api() -> None:
    model = str(EXAMPLES / "lstm_ti.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz"))
    result = compare(model, inputs)
    assert result.mode == "openvino" and result.ok, result.text()
    assert [o["verdict"] for o in result.report["outputs"]] == ["ok", "ok", "ok"]
    assert result.text().startswith("OpenVINO CPU plugin, inference precision f32")


def test_equal_infinities_agree() -> None:
    got = np.array([np.inf, -np.inf, 6, 6], np.float32)
    row = error_row("-", got, got.copy(), 1e-4, 1e-5)
    assert (row.max_abs, row.max_rel, row.beyond) == (0.0, 0.0, 0)
    other = np.array([np.inf, np.inf, 6, 6], np.float32)
    assert error_row("-", got, other, 1e-4, 1e-5).max_abs == np.inf


class _Layer:
    def __init__(self, path: str) -> None:
        self.path = path


def test_a_layer_too_big_for_the_budget_does_not_push_out_the_others() -> None:
    rec = Recorder({"small0": 0, "huge": 1, "small2": 2, "small3": 3}, budget=1000)
    small = np.zeros(10, np.float32)  # 40 bytes
    for path, value in (("small0", small), ("small2", small), ("small3", small), ("huge", np.zeros(1000))):
        rec.layer_evaluated(_Layer(path), [value], ())  # type: ignore[arg-type]
    assert rec.dropped == ["huge"] and rec.dropped_bytes["huge"] == 8000
    assert set(rec.values) == {"small0", "small2", "small3"}


def test_a_big_layer_that_fits_alone_does_not_push_out_the_small_ones_after_it() -> None:
    """Ten small layers (80 bytes over 10 runs each) and one of 400 after the first: all fit but the big
    one; dropping the small ones from the end would keep 7 layers, dropping the big one keeps 10."""
    wanted = ["small0", "big", *[f"small{i}" for i in range(1, 10)]]
    rec = Recorder({p: i for i, p in enumerate(wanted)}, budget=1000)
    for it in range(10):
        for path in wanted:
            value = np.zeros(10 if path == "big" else 2, np.float32)
            rec.layer_evaluated(_Layer(path), [value], (("1", it),))  # type: ignore[arg-type]
    assert rec.dropped == ["big"] and len(rec.values) == 10 and rec.kept == 800


def test_a_layer_left_out_for_the_budget_is_said_with_what_its_whole_run_takes() -> None:
    """Dropped in its first run, the layer is still counted: the report gives all its runs' bytes, not the
    bytes held when it was dropped."""
    from irlint.comparison.inside import budget_reason

    rec = Recorder({"small": 0, "huge": 1, "late": 2, "later": 3}, budget=1000)
    small = np.zeros(10, np.float32)  # 40 bytes a run, 400 over 10 runs: two of them fit, three do not
    for it in range(10):
        for path, value in (("small", small), ("huge", np.zeros(1000)), ("late", small), ("later", small)):
            rec.layer_evaluated(_Layer(path), [value], (("1", it),))  # type: ignore[arg-type]
    assert rec.dropped == ["huge", "later"] and rec.needed == {"small": 400, "huge": 80000, "late": 400, "later": 400}
    assert budget_reason(rec, "huge").endswith("its values take 80,000 bytes (8,000 bytes each of its 10 runs), "
                                               "alone more than that")
    assert "keeps 1,000 bytes" in budget_reason(rec, "huge")
    assert budget_reason(rec, "later").endswith("400 bytes (40 bytes each of its 10 runs), more than was left "
                                                "beside the layers kept")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", "compare", *args], capture_output=True, text=True,
                          timeout=180)


def test_exit_codes_of_what_cannot_be_compared(tmp_path: Path) -> None:
    npz = str(EXAMPLES / "inputs" / "lstm_ti.npz")
    res = cli(str(EXAMPLES / "lstm_ti.xml"), npz)
    assert res.returncode == 2 and "an .npz of inputs is given as --inputs" in res.stderr
    lone = tmp_path / "lstm_ti.xml"
    lone.write_bytes((EXAMPLES / "lstm_ti.xml").read_bytes())  # without its .bin
    res = cli(str(lone), "--inputs", npz)
    assert res.returncode == 2 and "W301" in res.stderr and "Traceback" not in res.stderr
    a = str(save(scaled_ti(0.5), tmp_path / "a.xml"))
    import openvino.opset13 as ops

    wide = _ti(lambda xi: ops.tanh(xi, name="squash"), [1, 6, 4], np.float32, "wide")
    b = str(save(wide, tmp_path / "b.xml"))
    np.savez(tmp_path / "in.npz", **X)
    res = cli(a, b, "--inputs", str(tmp_path / "in.npz"))
    assert res.returncode == 2 and "input 'X' is declared [1, 6, 4]" in res.stderr and "Traceback" not in res.stderr
    b = str(save(scaled_ti(0.25), tmp_path / "b.xml"))
    (tmp_path / "b.bin").unlink()  # B without its .bin: could not check either
    res = cli(a, b, "--inputs", str(tmp_path / "in.npz"))
    assert res.returncode == 2 and "W301" in res.stderr and "Traceback" not in res.stderr
    with pytest.raises(CompareError, match="W301"):
        compare(a, X, b)


def test_irlint_compare_is_the_function() -> None:
    import irlint

    assert callable(irlint.compare) and callable(irlint.compare)  # twice: no submodule shadows it


def test_an_openvino_model_in_memory_is_compared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    spill = tmp_path / "tmp"
    spill.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spill))
    result = compare(scaled_ti(0.5), X)  # against OpenVINO: its child reads a temporary copy
    assert result.ok and result.report["model"] == "<openvino.Model 'scaled_ti'>", result.text()
    two = compare(scaled_ti(0.5), X, scaled_ti(0.5001))
    assert [c["kind"] for c in two.report["changes"]] == ["const"]
    assert list(spill.iterdir()) == []  # nothing left behind


def test_the_comparison_package_never_imports_the_cli() -> None:
    """One-way: `irlint compare` (irlint/cli) is a thin command over irlint.comparison, never the reverse;
    OpenVINO is imported only inside the child process' functions."""
    import ast

    package = Path(__file__).resolve().parents[2] / "irlint" / "comparison"
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("irlint.cli", "irlint.viewer", "viewer")), (path.name, name)
        top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        modules = [a.name for n in top if isinstance(n, ast.Import) for a in n.names]
        modules += [n.module or "" for n in top if isinstance(n, ast.ImportFrom)]
        assert not [m for m in modules if m.split(".")[0] == "openvino"], path


def test_a_layer_only_in_b_is_a_change(tmp_path: Path) -> None:
    """An added Multiply by 1 changes no number, but B is not A: listed first, exit 1."""
    import openvino.opset13 as ops

    def body(extra: bool):  # type: ignore[no-untyped-def]
        def make(xi):  # type: ignore[no-untyped-def]
            d = ops.multiply(xi, ops.constant(np.array(2, np.float32)), name="double")
            if extra:
                d = ops.multiply(d, ops.constant(np.array(1, np.float32)), name="times_one")
            return ops.tanh(d, name="squash")
        return make

    a, b = _two(tmp_path, _ti(body(False), [1, 6, 3], np.float32, "e"), _ti(body(True), [1, 6, 3], np.float32, "e"))
    result = compare(a, X, b)
    (change,) = result.report["changes"]
    assert (change["kind"], change["layer"], change["b"]) == ("added", "times_one", "Multiply (opset1)")
    assert not result.ok and all(o["verdict"] == "ok" for o in result.report["outputs"])
    assert "only in B: 'times_one' (Multiply (opset1), B 1/body/4)" in result.text()
    assert compare(b, X, a).report["changes"][0]["kind"] == "removed"


def test_two_conversions_with_made_up_names_are_matched_inside_their_if_and_loop(tmp_path: Path) -> None:
    """Two builds of one model: every If, Loop and body layer has a made-up name (If_19 in A, If_45 in B).
    The If and Loop are matched by place, the layers inside them through them, and a changed body
    constant is the one change."""
    from tests.ifmodels import loop_in_if

    a, b = _two(tmp_path, loop_in_if(), loop_in_if())
    bin_b = tmp_path / "b.bin"
    raw = bin_b.read_bytes()
    two = np.float32(2).tobytes()
    assert raw.count(two) == 1
    bin_b.write_bytes(raw.replace(two, np.float32(2.5).tobytes()))
    inputs = {"cond": np.array(True), "x": np.arange(4, dtype=np.float32).reshape(2, 2)}
    result = compare(a, inputs, b)
    (change,) = result.report["changes"]
    assert change["kind"] == "const" and change["max_abs"] == 0.5 and change["read_by"][0].startswith("Multiply_")
    assert result.report["unmatched"]["only_in_a"] == [] and result.report["unmatched"]["only_in_b"] == []
    first = result.report["first_difference"]
    assert (first["type"], first["iteration"]) == ("Multiply", "0.0")  # inside the Loop, inside the If
    assert {x["type"] for x in result.report["layers"]} == {"If", "Loop", "Multiply", "Add"}


def test_two_irs_say_what_each_run_keeps_when_layers_are_left_out_for_memory(tmp_path: Path) -> None:
    from irlint.interp import Options

    a = str(save(scaled_ti(0.5), tmp_path / "a.xml"))
    result = compare(a, X, a, options=Options(memory_budget=800, time_limit=60))
    assert result.report["memory_kept_bytes"] == 200 and result.report["unmatched"]["left_out_for_memory"]
    assert "each run keeps 200 bytes of values, a quarter of --memory-budget" in result.text()
