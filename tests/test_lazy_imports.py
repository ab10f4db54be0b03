"""`irlint check` and `irlint --version` stay light: the TUI, graphviz, networkx and the interpreter are
imported only by the commands that use them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "lstm_ti.xml"
HEAVY = ["textual", "graphviz", "networkx", "irlint.interp", "irlint.viewer", "openvino"]


def loaded_after(code: str) -> dict[str, bool]:
    probe = f"import sys\n{code}\nprint(repr({{m: m in sys.modules for m in {HEAVY!r}}}))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    return eval(out.stdout.strip().splitlines()[-1])


def test_check_imports_nothing_heavy() -> None:
    loaded = loaded_after(f"from irlint.cli.main import main\nmain(['check', {str(EXAMPLE)!r}])")
    assert not any(loaded.values()), loaded


def test_version_imports_nothing_heavy() -> None:
    loaded = loaded_after("from irlint.cli.main import main\nmain(['--version'])")
    assert not any(loaded.values()), loaded


def test_the_python_api_imports_nothing_heavy_and_never_openvino() -> None:
    """`irlint.check` on a file, and telling whether an object is an openvino.Model, import nothing heavy."""
    loaded = loaded_after(
        "import irlint\nfrom irlint.ir.ovmodel import is_openvino_model\n"
        f"assert not is_openvino_model(object())\nirlint.check({str(EXAMPLE)!r})"
    )
    assert not any(loaded.values()), loaded


def test_running_and_rendering_a_file_never_import_openvino() -> None:
    """openvino is optional: only a caller passing an openvino.Model has imported it."""
    inputs = EXAMPLE.parent / "inputs" / "lstm_ti.npz"
    loaded = loaded_after(
        "import numpy as np, irlint\n"
        f"irlint.run({str(EXAMPLE)!r}, dict(np.load({str(inputs)!r})))\n"
        f"irlint.render({str(EXAMPLE)!r})"
    )
    assert loaded["irlint.interp"] and loaded["irlint.viewer"], loaded  # the probe did run both
    assert not loaded["openvino"], loaded


def test_no_module_of_the_python_api_imports_openvino() -> None:
    """Importing what the API is made of (the facade, the viewer's diagram, compare, tracing, stepping)
    leaves openvino out: it stays optional."""
    loaded = loaded_after(
        "import irlint, irlint.api, irlint.viewer.notebook, irlint.comparison.api, irlint.traced\n"
        "import irlint.interp.stepper, irlint.ir.ovmodel, irlint.report.notebook\n"
        "for name in irlint.__all__: getattr(irlint, name)"
    )
    assert loaded["irlint.viewer"] and not loaded["openvino"], loaded


@pytest.mark.skipif(importlib.util.find_spec("openvino") is None, reason="compare runs OpenVINO")
def test_compare_runs_openvino_only_in_its_child() -> None:
    inputs = EXAMPLE.parent / "inputs" / "lstm_ti.npz"
    loaded = loaded_after(
        "import numpy as np, irlint\n"
        f"result = irlint.compare({str(EXAMPLE)!r}, dict(np.load({str(inputs)!r})))\n"
        "assert result.ok and result.report['precision']['openvino'], result.text()"
    )
    assert not loaded["openvino"], loaded
