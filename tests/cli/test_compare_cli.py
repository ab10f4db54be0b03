"""`irlint compare`: OpenVINO's precision, the error per iteration (text, JSON, plot), `--inside` (body
layers per iteration, on an instrumented copy) and two IRs of one model against each other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.cli.compare_models import chain_ti, int_divide_ti, save, scaled_ti

pytest.importorskip("openvino")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LSTM = [str(EXAMPLES / "lstm_ti.xml"), "--inputs", str(EXAMPLES / "inputs" / "lstm_ti.npz")]


def cli(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", "compare", *args], capture_output=True, text=True,
                          timeout=timeout)


def as_json(res: subprocess.CompletedProcess[str]) -> dict:
    assert "Traceback" not in res.stderr, res.stderr
    return json.loads(res.stdout)


# -- --precision -----------------------------------------------------------------------------------


def test_the_default_precision_is_f32_and_agrees() -> None:
    res = cli(*LSTM, "--format", "json")
    report = as_json(res)
    assert res.returncode == 0
    assert report["precision"] == {"asked": "f32", "openvino": "f32"}
    assert [o["verdict"] for o in report["outputs"]] == ["ok", "ok", "ok"]
    assert "(default f32" in " ".join(cli("--help").stdout.split())


def test_bf16_drifts_and_is_reported_per_iteration() -> None:
    res = cli(*LSTM, "--precision", "bf16", "--format", "json")
    report = as_json(res)
    if report["precision"]["openvino"] != "bf16":
        pytest.skip(f"this CPU runs {report['precision']['openvino']} when asked for bf16")
    assert res.returncode == 1
    y = next(o for o in report["outputs"] if o["name"] == "Y")
    assert y["verdict"] == "differs" and [r["iteration"] for r in y["rows"]] == ["0", "1", "2", "3", "4"]
    assert all(r["max_abs"] > 1e-5 and r["max_ulp"] > 1000 for r in y["rows"])  # bf16 keeps 8 bits
    assert y["first_difference"]["iteration"] == 0


def test_default_precision_passes_no_hint() -> None:
    res = cli(*LSTM, "--precision", "default")
    assert "no hint: the plugin's default" in res.stdout
    assert "inference precision f32" in res.stdout or res.returncode == 1  # a bf16 CPU drifts


def test_text_report_has_the_per_iteration_table() -> None:
    res = cli(*LSTM)
    assert res.returncode == 0, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    at = lines.index("Y: per iteration of layer 3 'TensorIterator_23' (TensorIterator)")
    assert lines[at + 1].split() == ["iteration", "max", "abs", "max", "rel", "max", "ULP", "beyond", "tol"]
    assert [line.split()[0] for line in lines[at + 2:at + 7]] == ["0", "1", "2", "3", "4"]
    assert all(line.split()[-1] == "0/4" for line in lines[at + 2:at + 7])


def test_plot_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "err.png"
    res = cli(*LSTM, "--plot", str(out))
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "plot: 1 panel" in res.stderr


def test_plot_never_overwrites_an_input(tmp_path: Path) -> None:
    res = cli(*LSTM, "--plot", str(EXAMPLES / "inputs" / "lstm_ti.npz"))
    assert res.returncode == 2 and "extension" in res.stderr
    xml = tmp_path / "m.png"
    xml.write_bytes((EXAMPLES / "lstm_ti.xml").read_bytes())
    (tmp_path / "m.bin").write_bytes((EXAMPLES / "lstm_ti.bin").read_bytes())
    res = cli(str(xml), "--inputs", str(EXAMPLES / "inputs" / "lstm_ti.npz"), "--plot", str(xml))
    assert res.returncode == 2 and "would overwrite an input" in res.stderr
    assert xml.read_bytes() == (EXAMPLES / "lstm_ti.xml").read_bytes()


# -- --inside --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def int_divide(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    d = tmp_path_factory.mktemp("div")
    np.savez(d / "in.npz", X=np.array([[2, 4, -8, 5]], np.int32))  # x + 1 = 3, 5, -7, 6
    return str(save(int_divide_ti(), d / "div.xml")), str(d / "in.npz")


def test_inside_names_the_layer_where_the_cpu_plugin_departs(int_divide: tuple[str, str]) -> None:
    """Divide on i32 with m_pythondiv floors in the spec (-7 / 3 = -3); the CPU plugin truncates (-2)."""
    xml, npz = int_divide
    before = Path(xml).read_bytes()
    res = cli(xml, "--inputs", npz, "--inside")
    assert res.returncode == 1, res.stdout + res.stderr
    assert ("first difference inside: iteration 2, layer 'quotient' (Divide, 1/body/4) out2, element (0, 0): "
            "irlint -3, OpenVINO -2") in res.stdout
    assert "upstream in that iteration, still agreeing: shifted" in res.stdout
    assert "bit-identical" in res.stdout
    assert Path(xml).read_bytes() == before  # the instrumented model is a copy
    report = as_json(cli(xml, "--inputs", npz, "--inside", "--format", "json"))
    first = report["inside"]["first_difference"]
    assert (first["iteration"], first["layer"], first["index"], first["ours"], first["openvino"]) == \
        ("2", "quotient", [0, 0], -3.0, -2.0)
    assert first["trace_key"] == "1/body/4@2:out2"  # as `irlint run --trace-all` records it
    verdicts = {c["layer"]: c["verdict"] for c in report["inside"]["compared"]}
    assert verdicts == {"shifted": "ok", "quotient": "differs", "twice": "differs"}
    assert report["inside"]["instrumented_outputs_same"] == [True]


def test_inside_a_named_layer_only(int_divide: tuple[str, str]) -> None:
    xml, npz = int_divide
    report = as_json(cli(xml, "--inputs", npz, "--inside", "shifted", "--format", "json"))
    assert [c["layer"] for c in report["inside"]["compared"]] == ["shifted"]
    res = cli(xml, "--inputs", npz, "--inside", "nope")
    assert res.returncode == 2 and "--inside nope: no layer" in res.stderr


def test_inside_nested_bodies_through_their_parents() -> None:
    report = as_json(cli(str(EXAMPLES / "nested_loop_in_ti.xml"), "--inputs",
                         str(EXAMPLES / "inputs" / "nested_loop_in_ti.npz"), "--inside", "--format", "json"))
    compared = {c["path"]: c for c in report["inside"]["compared"]}
    inner = [c for p, c in compared.items() if "/body/6/body/" in p]
    assert inner and all(c["verdict"] == "ok" for c in compared.values())
    assert [r["iteration"] for r in inner[0]["rows"]] == [f"{o}.{i}" for o in range(3) for i in range(3)]


def test_inside_if_branches_are_compared_through_the_if() -> None:
    report = as_json(cli(str(EXAMPLES / "if_in_loop.xml"), "--inputs", str(EXAMPLES / "inputs" / "if_in_loop.npz"),
                         "--inside", "--format", "json"))
    rows = {c["layer"]: [r["iteration"] for r in c["rows"]] for c in report["inside"]["compared"]}
    assert rows["even_or_odd"] == ["0", "1", "2", "3"]  # the If itself
    assert sorted(rows["h_plus_x"] + rows["h_halved"]) == ["0.0", "1.0", "2.0", "3.0"]  # each where it ran
    assert all(c["verdict"] == "ok" for c in report["inside"]["compared"]) and not report["inside"]["left_out"]


def test_inside_fits_the_memory_budget(tmp_path: Path) -> None:
    """A 1,000-iteration body of 50 layers: 50 MB of layer outputs; a 40 MB budget keeps a quarter."""
    xml = save(chain_ti(1000, 50, 256), tmp_path / "chain.xml")
    report = as_json(cli(str(xml), "--random-inputs", "--inside", "--memory-budget", "40000000",
                         "--format", "json", timeout=300))
    compared = report["inside"]["compared"]
    left = [x for x in report["inside"]["left_out"] if "--memory-budget" in x["why"]]
    assert len(compared) == 9 and len(left) == 41  # 1,024,000 bytes per layer, 10,000,000 kept
    assert [c["layer"] for c in compared] == [f"{'add' if i % 2 else 'mul'}_{i}" for i in range(9)]
    assert all(len(c["rows"]) == 1000 for c in compared)


# -- two IRs of one model --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_irs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, str]:
    """A, and B: the same IR with the Multiply 'scale' constant 0.5 changed to 0.5001 in its .bin."""
    d = tmp_path_factory.mktemp("two")
    np.savez(d / "in.npz", X=np.random.default_rng(0).standard_normal((1, 6, 3)).astype(np.float32))
    a = save(scaled_ti(0.5), d / "a.xml")
    b = d / "b.xml"
    b.write_bytes(a.read_bytes())
    weights = a.with_suffix(".bin").read_bytes()
    half, changed = np.float32(0.5).tobytes(), np.float32(0.5001).tobytes()
    assert weights.count(half) == 1
    b.with_suffix(".bin").write_bytes(weights.replace(half, changed))
    return str(a), str(b), str(d / "in.npz")


def test_two_irs_name_the_changed_layer_and_iteration(two_irs: tuple[str, str, str]) -> None:
    a, b, npz = two_irs
    res = cli(a, b, "--inputs", npz)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "first layer where A and B part: iteration 0, layer 'scale' (Multiply, A 1/body/2, B 1/body/2)" in res.stdout
    assert "upstream, not compared: x_t (Parameter)" in res.stdout
    report = as_json(cli(a, b, "--inputs", npz, "--format", "json"))
    first = report["first_difference"]
    assert (first["layer"], first["iteration"]) == ("scale", "0")
    assert first["b"] == pytest.approx(first["a"] * 0.5001 / 0.5, rel=1e-6)
    differs = {x["layer"] for x in report["layers"] if x["verdict"] == "differs"}
    assert differs == {"scale", "squash", "shift", "steps"}
    assert report["unmatched"]["only_in_a"] == report["unmatched"]["only_in_b"] == []


def test_two_irs_that_agree(two_irs: tuple[str, str, str]) -> None:
    a, _b, npz = two_irs
    report = as_json(cli(a, a, "--inputs", npz, "--format", "json"))
    assert report["first_difference"] is None and all(x["verdict"] == "ok" for x in report["layers"])
    assert {x["layer"] for x in report["layers"]} == {"scale", "squash", "shift", "steps"}


def test_two_irs_with_openvino_too(two_irs: tuple[str, str, str]) -> None:
    a, b, npz = two_irs
    report = as_json(cli(a, b, "--inputs", npz, "--openvino", "--format", "json"))
    assert report["openvino"]["precision"] == "f32"
    assert [o["verdict"] for o in report["openvino"]["outputs"]] == ["differs"]


def test_two_irs_usage_errors(two_irs: tuple[str, str, str]) -> None:
    a, b, npz = two_irs
    res = cli(a, b, str(EXAMPLES / "lstm_ti.xml"), "--inputs", npz)
    assert res.returncode == 2 and "one or two models" in res.stderr
    res = cli(a, str(EXAMPLES / "lstm_ti.xml"), "--inputs", npz)
    assert res.returncode == 2 and "inputs" in res.stderr and "Traceback" not in res.stderr
    res = cli(a, "--inputs", npz, "--openvino")
    assert res.returncode == 2 and "two models" in res.stderr


def test_inside_a_top_level_layer_and_a_model_without_bodies(int_divide: tuple[str, str], tmp_path: Path) -> None:
    import openvino as ov
    import openvino.opset13 as ops

    xml, npz = int_divide
    report = as_json(cli(xml, "--inputs", npz, "--inside", "steps", "--format", "json"))
    (only,) = report["inside"]["compared"]
    assert (only["path"], only["verdict"], [r["iteration"] for r in only["rows"]]) == ("1", "differs", ["-"])
    x = ops.parameter([2], np.float32, name="x")
    flat = save(ov.Model([ops.result(ops.tanh(x), name="y")], [x], "flat"), tmp_path / "flat.xml")
    res = cli(str(flat), "--random-inputs", "--inside")
    assert res.returncode == 0 and "inside the bodies: 0 layer outputs compared" in res.stdout, res.stderr


def test_a_precision_the_plugin_replaces_is_said() -> None:
    res = cli(*LSTM, "--precision", "f16")
    first = res.stdout.splitlines()[0]
    assert first.startswith("OpenVINO CPU plugin, inference precision ")
    if not first.endswith("precision f16"):
        assert "(asked f16: the plugin chose" in first


def test_plots_of_inside_and_of_two_irs(int_divide: tuple[str, str], two_irs: tuple[str, str, str],
                                        tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    xml, npz = int_divide
    res = cli(xml, "--inputs", npz, "--inside", "--plot", str(tmp_path / "inside.svg"))
    assert res.returncode == 1 and "plot: 4 panels" in res.stderr  # Y, then quotient first, then the others
    assert (tmp_path / "inside.svg").read_text().lstrip().startswith("<?xml")
    a, b, npz2 = two_irs
    res = cli(a, b, "--inputs", npz2, "--plot", str(tmp_path / "two.png"))
    assert res.returncode == 1 and (tmp_path / "two.png").stat().st_size > 1000 and "plot: 2 panels" in res.stderr


@pytest.mark.parametrize("name", ["lstm_ti", "loop_scan", "nested_loop_in_ti", "if_in_loop"])
def test_inside_agrees_on_every_example(name: str) -> None:
    """TensorIterator and Loop bodies alike: every probed layer agrees at f32, and the instrumented
    model's outputs are the original's, bit for bit."""
    res = cli(str(EXAMPLES / f"{name}.xml"), "--inputs", str(EXAMPLES / "inputs" / f"{name}.npz"), "--inside",
              "--format", "json")
    report = as_json(res)
    assert res.returncode == 0
    inside = report["inside"]
    assert inside["compared"] and all(c["verdict"] == "ok" and c["rows"] for c in inside["compared"])
    assert all(inside["instrumented_outputs_same"]) and inside["instrumented_outputs_max_abs"] == \
        [0.0] * len(report["outputs"])
    assert "first_difference" not in inside


def test_inside_an_if_branch(tmp_path: Path) -> None:
    """The layers of both branches are shown through new If outputs; each is compared in the
    iterations where irlint ran its branch (x = 6, -6, 3, -4: else in iterations 1 and 3)."""
    from tests.cli.compare_models import if_divide_ti

    xml = save(if_divide_ti(), tmp_path / "ifdiv.xml")
    np.savez(tmp_path / "in.npz", X=np.array([[6, -6, 3, -4]], np.int32))
    res = cli(str(xml), "--inputs", str(tmp_path / "in.npz"), "--inside", "--format", "json")
    report = as_json(res)
    assert res.returncode == 1
    rows = {c["layer"]: [r["iteration"] for r in c["rows"]] for c in report["inside"]["compared"]}
    assert rows["pos_quotient"] == ["0.0", "2.0"] and rows["neg_quotient"] == ["1.0", "3.0"]
    assert rows["minus_one"] == ["1.0", "3.0"] and rows["sign"] == ["0", "1", "2", "3"]
    first = report["inside"]["first_difference"]
    # (-6 - 1) / 3: floor -3, the CPU plugin -2; minus_one before it still agrees
    assert (first["layer"], first["iteration"], first["ours"], first["openvino"]) == ("neg_quotient", "1.0", -3, -2)
    assert first["upstream_agreeing"] == ["minus_one"] and first["trace_key"] == f"{first['path']}@1.0:out2"
    assert report["inside"]["instrumented_outputs_same"] == [True]


def test_two_irs_that_part_in_a_shape(tmp_path: Path) -> None:
    from tests.cli.compare_models import widened_ti

    a = save(widened_ti(False), tmp_path / "a.xml")
    b = save(widened_ti(True), tmp_path / "b.xml")
    np.savez(tmp_path / "in.npz", X=np.ones((1, 3, 3), np.float32))
    res = cli(str(a), str(b), "--inputs", str(tmp_path / "in.npz"))
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "type of 'double' (A 1/body/2, B 1/body/1): Multiply (opset1) in A, Concat (opset1) in B" in res.stdout
    assert res.stdout.index("type of 'double'") < res.stdout.index("first layer where A and B part")  # causes first
    assert ("first layer where A and B part: iteration 0, layer 'double' (Multiply in A, Concat in B, A 1/body/2, "
            "B 1/body/1) out2, "
            "shape [1, 1, 3] in A, [1, 1, 6] in B") in res.stdout, res.stdout
    assert "shape [1, 3, 3] vs B [1, 3, 6]" in res.stdout  # the output Y
    assert "    squash out1: iteration 0: shape [1, 1, 3] in A, [1, 1, 6] in B" in res.stdout


def test_two_irs_plot_never_overwrites_b(two_irs: tuple[str, str, str], tmp_path: Path) -> None:
    a, b, npz = two_irs
    weights = Path(b).with_suffix(".bin")
    link = tmp_path / "b.png"
    link.symlink_to(weights)
    before = weights.read_bytes()
    res = cli(a, b, "--inputs", npz, "--plot", str(link))
    assert res.returncode == 2 and "would overwrite an input (B's weights" in res.stderr
    assert weights.read_bytes() == before


@pytest.mark.parametrize("name", ["loop_dynamic_trip", "loop_while_condition", "loop_in_loop",
                                  "scan_two_inputs_axis1", "if_branches"])
def test_inside_agrees_on_onnx_loops_converted_by_openvino(name: str, tmp_path: Path) -> None:
    """The IRs OpenVINO's ONNX front end writes (Loop, Scan as a TensorIterator, Loop in Loop, If):
    every probed body layer agrees, and a layer that cannot be probed is listed with its reason."""
    pytest.importorskip("onnx")
    from tests.corpus.onnx_models import ONNX_MODELS, to_ir

    path = to_ir(ONNX_MODELS[name](), tmp_path, name)
    res = cli(str(path), "--random-inputs", "--seed", "1", "--inside", "--format", "json")
    report = as_json(res)
    assert res.returncode == 0, res.stdout
    inside = report["inside"]
    assert inside["compared"] and all(row["verdict"] == "ok" for row in inside["compared"])
    assert all(inside["instrumented_outputs_same"])
    if name == "if_branches":
        assert any("If branch was not taken" in out["why"] for out in inside["left_out"])


KERAS = Path(__file__).resolve().parents[1] / "viewer" / "fixtures"


def test_the_three_modes_on_a_keras_lstm_converted_by_openvino(tmp_path: Path) -> None:
    """A TensorFlow-written Loop (a Keras LSTM, the counter on a back edge, a buffer written by
    ScatterUpdate): --precision, --inside and two IRs each work on it."""
    xml, npz = str(KERAS / "keras_lstm.xml"), str(KERAS / "keras_lstm_inputs.npz")
    plain = as_json(cli(xml, "--inputs", npz, "--format", "json"))
    assert [o["verdict"] for o in plain["outputs"]] == ["ok"]
    bf16 = as_json(cli(xml, "--inputs", npz, "--precision", "bf16", "--format", "json"))
    assert bf16["precision"]["asked"] == "bf16" and bf16["outputs"]
    inside = as_json(cli(xml, "--inputs", npz, "--inside", "--format", "json"))["inside"]
    assert len(inside["compared"]) > 20 and all(row["verdict"] == "ok" for row in inside["compared"])
    assert all(inside["instrumented_outputs_same"])
    res = cli(xml, xml, "--inputs", npz)
    assert res.returncode == 0 and "0 differ" in res.stdout
