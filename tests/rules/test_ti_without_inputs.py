"""PM416's fixtures on OpenVINO 2026.4's CPU plugin, each in a child process: a TensorIterator left
without inputs (constants moved into its body, unread inputs removed) kills the process at the first
inference (SIGSEGV); the pass fixture's TensorIterators keep an input and compute what irlint does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import run

ov = pytest.importorskip("openvino")
FIXTURES = Path(__file__).parent / "fixtures" / "PM416"
INPUTS = {"q": np.ones(1, np.float32), "x": np.arange(3, dtype=np.float32)}

CHILD = """
import json, sys, numpy as np, openvino as ov
core = ov.Core()
model = core.read_model(sys.argv[1])
feeds = {"q": np.ones(1, np.float32), "x": np.arange(3, dtype=np.float32)}
compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
print("compiled", flush=True)
out = compiled({p.get_any_name(): feeds[p.get_any_name()] for p in model.inputs})
print(json.dumps({k.get_any_name(): np.asarray(v).tolist() for k, v in out.items()}))
"""


def cpu_run(name: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, str(FIXTURES / name)], capture_output=True, text=True,
                          timeout=300)


def codes(name: str) -> set[str]:
    return {d.code for d in irlint.check(FIXTURES / name) if d.severity is not Severity.INFO}


@pytest.mark.parametrize("name", ["fail.xml", "fail-removed.xml", "fail-loop.xml"])
def test_a_tensor_iterator_left_without_inputs_compiles_and_crashes(name: str) -> None:
    done = cpu_run(name)
    assert done.returncode == -11 and done.stdout == "compiled\n", done  # SIGSEGV after compiling
    assert "PM416" in codes(name)
    model = irlint.load(FIXTURES / name)
    feeds = {k: v for k, v in INPUTS.items() if k in {p.name for p in model.graph.layers if p.type == "Parameter"}}
    assert run(model, feeds)["y"].tolist() == [5.0]  # 2 + 2, plus q: the spec's value


def test_tensor_iterators_that_keep_an_input_run() -> None:
    done = cpu_run("pass.xml")
    assert done.returncode == 0, done
    cpu = json.loads(done.stdout.splitlines()[-1])
    ours = run(irlint.load(FIXTURES / "pass.xml"), {"q": INPUTS["q"]})
    assert set(cpu) == set(ours)
    for name, want in cpu.items():
        np.testing.assert_allclose(ours[name], np.asarray(want, np.float32), err_msg=name)
    assert "PM416" not in codes("pass.xml")
