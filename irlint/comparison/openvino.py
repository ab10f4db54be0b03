"""Running OpenVINO for `irlint compare`: in a child process (`irlint.comparison.ov_child`) under a timeout.

OpenVINO is never imported into irlint's own process: its crash (by signal), timeout or exception
(the whole message) comes back as words, a finding about OpenVINO, never a crash of irlint.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from irlint import orphans

if TYPE_CHECKING:
    from irlint.ir.model import Model


@dataclass
class OvRun:
    """OpenVINO's Results by name in order, the precision it ran at, and the probes it showed."""

    names: list[str]
    values: list[np.ndarray]
    precision: str
    probes: dict[int, np.ndarray] = field(default_factory=dict)
    skipped: dict[int, str] = field(default_factory=dict)
    instrumented_same: list[bool] | None = None
    instrumented_max_abs: list[float | None] | None = None  # per Result: instrumented against original
    instrument_error: str | None = None  # OpenVINO failed on the instrumented copy (the plain run stands)
    observer_effect: dict[str, Any] | None = None  # probes left out because observing them changed the outputs


# `subprocess.run` waits on the child's pipes with poll(), whose timeout is a C int of milliseconds
# (24.8 days): a longer `--timeout` (1e10) made it raise OverflowError. Any longer timeout is 23 days.
MAX_TIMEOUT = 2_000_000.0


def run_openvino(model: str, weights: str | None, inputs: dict[str, np.ndarray], timeout: float,
                 job: dict[str, Any]) -> OvRun | str:
    """Run OpenVINO in a child process; its results, or what went wrong in words."""
    with tempfile.TemporaryDirectory(prefix="irlint-compare-") as tmp:
        tmp_in, tmp_out, tmp_report, tmp_job = (os.path.join(tmp, n)
                                                for n in ("in.npz", "out.npz", "report.json", "job.json"))
        np.savez(tmp_in, **inputs)
        with open(tmp_job, "w", encoding="utf-8") as f:
            json.dump(job, f)
        cmd = [sys.executable, "-m", "irlint.comparison.ov_child", os.path.abspath(model),
               os.path.abspath(weights) if weights else "", tmp_in, tmp_out, tmp_report, tmp_job]
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  errors="replace", timeout=min(timeout, MAX_TIMEOUT),
                                  preexec_fn=orphans.before_exec())
        except subprocess.TimeoutExpired as e:
            stage = _last_stage(e.stdout)
            return f"OpenVINO did not finish within --timeout {timeout:g} s (stage: {stage}); it was killed"
        stage = _last_stage(proc.stdout)
        if proc.returncode < 0:
            try:
                sig = signal.Signals(-proc.returncode).name
            except ValueError:
                sig = f"signal {-proc.returncode}"
            tail = proc.stderr.strip()[-2000:]
            return (f"OpenVINO crashed with {sig} (stage: {stage})" + (f"; its stderr:\n{tail}" if tail else ""))
        try:
            with open(tmp_report, encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, ValueError):
            tail = proc.stderr.strip()[-2000:]
            return f"OpenVINO's process exited with code {proc.returncode} (stage: {stage})" + (
                f"; its stderr:\n{tail}" if tail else "")
        if "error" in report:
            return f"OpenVINO raised {report['error']} (stage: {stage}):\n{report['message']}"
        with np.load(tmp_out, allow_pickle=False) as z:
            values = [z[f"r{i}"] for i in range(len(report["names"]))]
            probes = {int(i): z[f"p{i}"] for i in report.get("placed", [])}
        return OvRun(list(report["names"]), values, str(report.get("precision", "unknown")), probes,
                     {int(k): v for k, v in report.get("skipped", {}).items()}, report.get("instrumented_same"),
                     report.get("instrumented_max_abs"), report.get("instrument_error"), report.get("observer_effect"))


@contextmanager
def model_files(model: Model) -> Iterator[tuple[str, str | None]]:
    """The model's XML and weights as files OpenVINO's child can read: the model's own, or, for a model
    serialised from an `openvino.Model` in memory, copies in a temporary folder removed afterwards."""
    from irlint.ir.ovmodel import serialized_xml

    xml = serialized_xml(model)
    if xml is None:
        yield model.path, model.weights.path if model.weights.usable else None
        return
    with tempfile.TemporaryDirectory(prefix="irlint-compare-model-") as tmp:
        xml_path, bin_path = os.path.join(tmp, "model.xml"), os.path.join(tmp, "model.bin")
        with open(xml_path, "w", encoding="utf-8") as f:
            f.write(xml)
        with open(bin_path, "wb") as f:
            if model.weights.size:
                f.write(model.weights.raw(0, model.weights.size).tobytes())
        yield xml_path, bin_path


def _last_stage(stdout: str | bytes | None) -> str:
    if isinstance(stdout, bytes):
        stdout = stdout.decode("utf-8", "replace")
    stages = [line[7:] for line in (stdout or "").splitlines() if line.startswith("stage: ")]
    return stages[-1] if stages else "start"
