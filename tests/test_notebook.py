"""examples/notebook/pytorch_loop.ipynb runs headless (nbclient) and shows its results inline.

The kernel is this interpreter (the test's venv): a kernelspec naming `sys.executable` is written into a
temporary directory for the run, so neither a global Jupyter setup nor PATH decides which Python runs it.
nbclient runs in a child process of its own: in a pytest worker that earlier tests left with event loops
or threads (Textual's, Playwright's), its synchronous wrapper can wait forever.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("openvino")
pytest.importorskip("matplotlib")
jupyter_client = pytest.importorskip("jupyter_client")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "notebook" / "pytorch_loop.ipynb"


def kernel_manager(tmp: Path):  # type: ignore[no-untyped-def]
    """A kernel manager for a kernelspec, written under `tmp`, that runs this very Python."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec = tmp / "kernels" / "irlint-test"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "irlint test", "language": "python"}))
    ksm = KernelSpecManager(kernel_dirs=[str(tmp / "kernels")])
    return KernelManager(kernel_name="irlint-test", kernel_spec_manager=ksm)


def displayed(cell) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The MIME bundle of a code cell's result (execute_result or display_data), merged."""
    out: dict[str, str] = {}
    for o in cell.get("outputs", []):
        if o.get("output_type") in ("execute_result", "display_data"):
            out.update(o.get("data", {}))
    return out


def test_the_committed_notebook_has_no_outputs() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def test_the_notebook_runs_headless_and_shows_results_inline(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    executed = tmp_path / "executed.ipynb"
    run = subprocess.run([sys.executable, "-m", "tests.test_notebook", str(tmp_path), str(work), str(executed)],
                         cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    nb = nbformat.read(executed, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert errors == []
    by_source = {c.source.strip().splitlines()[-1]: displayed(c) for c in code}
    lint = by_source["diagnostics"]
    assert (
        "text/html" in lint
        and "1 warning in &lt;openvino.Model &#x27;while_break_stack&#x27;&gt;" in lint["text/html"]
        and "LP720" in lint["text/html"]  # the CPU plugin's 51 GB reservation for the constant trip count
    )
    assert lint["text/plain"].startswith("<openvino.Model 'while_break_stack'>: lines and columns of the XML")
    diagram = by_source["irlint.render(model)"]
    assert "<svg" in diagram["image/svg+xml"] and "Loop" in diagram["image/svg+xml"]
    assert "LP720" in diagram["image/svg+xml"]  # the check's finding, drawn on the Loop's output
    plot = by_source['traced.plot("h")']
    assert "<svg" in plot["image/svg+xml"]
    at_2 = by_source["irlint.render(traced, iteration=2)"]["image/svg+xml"]
    assert "it 2: [2, 3]" in at_2 and "it 2:" not in diagram["image/svg+xml"]  # h's value at iteration 2
    steps = "".join(o.get("text", "") for c in code for o in c.outputs if o.output_type == "stream")
    assert [line.split(":")[0] for line in steps.splitlines() if line.startswith("iteration")] == [
        f"iteration {k}" for k in range(5)
    ]
    assert list(work.iterdir()) == []  # the notebook writes nothing


def _execute(tmp: Path, work: Path, executed: Path) -> None:
    """Execute the notebook with its kernel under `tmp`, in `work`, and write the result to `executed`."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, km=kernel_manager(tmp), timeout=600,
                            resources={"metadata": {"path": str(work)}}).execute()
    nbformat.write(nb, executed)


if __name__ == "__main__":
    _execute(*(Path(a) for a in sys.argv[1:4]))
