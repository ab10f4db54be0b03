"""`irlint trace --find-nonfinite [--magnitude X]`: the first layer, port, iteration and element that holds a
NaN/Inf (or |value| > X), at any depth of nested loops; exit 1 when found, 0 when there is none."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irlint.cli.main import main
from tests.viewer import irs

pytest.importorskip("openvino")


@pytest.fixture(scope="module")
def nan_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return irs.save(irs.nan_in_nested_loops(), tmp_path_factory.mktemp("find") / "nan.xml")


def trace(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["trace", *args])
    return code, capsys.readouterr().out


def inputs(tmp_path: Path, x: list[float]) -> str:
    path = tmp_path / "in.npz"
    np.savez(path, x=np.array(x, np.float32))
    return str(path)


def test_the_first_nan_in_nested_loops(nan_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = trace(capsys, str(nan_model), "--inputs", inputs(tmp_path, [0, 0, 0]), "--find-nonfinite")
    assert code == 1
    assert out.splitlines() == ["first NaN/Inf: layer 3/body/8/body/8 'root' (Sqrt), port out1, iteration 2.3, "
                                "element [0] = nan"]


def test_a_magnitude(nan_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = trace(capsys, str(nan_model), "--inputs", inputs(tmp_path, [0, 0, 0]), "--find-nonfinite",
                      "--magnitude", "9.5")
    assert code == 1 and out.strip().endswith("iteration 0.0, element [2] = 10")
    assert "(Subtract), port out2" in out


def test_an_input_that_holds_one(nan_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = trace(capsys, str(nan_model), "--inputs", inputs(tmp_path, [0, np.inf, 0]), "--find-nonfinite")
    assert code == 1
    assert out.strip() == "first NaN/Inf: layer 0 'x' (Parameter), port out0, iteration -, element [1] = inf"


def test_watched_rows_up_to_the_finding(nan_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = trace(capsys, str(nan_model), "--inputs", inputs(tmp_path, [0, 0, 0]), "--find-nonfinite",
                      "--watch", "root")
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("layer") and len(lines) == 1 + 12 + 1  # 3 x 4 iterations, the finding
    assert lines[-2].split()[1] == "2.3" and "nan=1" in lines[-2]


def test_none_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    code, out = trace(capsys, str(examples / "lstm_ti.xml"), "--inputs", str(examples / "inputs" / "lstm_ti.npz"),
                      "--find-nonfinite", "--magnitude", "1e6")
    assert code == 0 and out.strip() == "no NaN or Inf and no |value| > 1e+06 in any tensor"


@pytest.mark.parametrize(("args", "message"), [
    (["--find-nonfinite", "--magnitude", "nan"], "finite number >= 0"),
    (["--magnitude", "1"], "goes with --find-nonfinite"),
    ([], "--watch LAYER... and/or --find-nonfinite"),
])
def test_usage_errors(nan_model: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["trace", str(nan_model), *args]) == 2
    assert message in capsys.readouterr().err
