"""docs/pytorch.md's code runs as written: its Python blocks in order, then its `irlint compare` command.

Step 1 (Convert) needs torch; in its place the model is `recurrence()` of tests/corpus/pytorch_shapes.py,
the `openvino.Model` OpenVINO's PyTorch front end makes of the page's module, built with OpenVINO's API.
Everything runs in an empty working directory, which holds only what the page saves there afterwards.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.corpus.pytorch_shapes import recurrence

ov = pytest.importorskip("openvino")
pytest.importorskip("matplotlib")

PAGE = Path(__file__).resolve().parents[1] / "docs" / "pytorch.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)


def blocks(kind: str) -> list[str]:
    return [code for lang, code in FENCE.findall(PAGE.read_text(encoding="utf-8")) if lang == kind]


def test_the_page_s_python_and_its_command_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    convert, *rest = blocks("python")
    assert "ov.convert_model(torch.jit.script(Recurrence())" in convert and "x.numpy()" in convert
    model, inputs = recurrence()
    names: dict[str, Any] = {"ov": ov, "model": model, "other": recurrence()[0], **inputs}
    for code in rest:
        exec(compile(code, str(PAGE), "exec"), names)  # the page's own code
    assert list(names["diagnostics"]) == []
    assert sorted(names["outputs"]) == ["h_last", "ys"] and names["outputs"]["ys"].shape == (6, 2, 3)
    assert names["result"].report["changes"] == [] and names["result"].ok
    assert names["event"].iteration == 0 and names["stepper"].finished
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inputs.npz", "model.bin", "model.html", "model.xml"]

    (command,) = blocks("sh")
    argv = shlex.split(command.split("#")[0])
    assert argv[:2] == ["irlint", "compare"]
    run = subprocess.run([sys.executable, "-m", "irlint", *argv[1:]], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "ys" in run.stdout and "ok" in run.stdout
