"""OpenVINO as an oracle: one long-lived child process (worker.py) answers many models, with a timeout
per model and a restart after a crash or a hang, so that thousands of models cost one import; a crash is
checked once more in a fresh worker."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

WORKER = Path(__file__).with_name("worker.py")


@dataclass
class Verdict:
    """What OpenVINO did with one model: `stage` is read / compile / infer / ok / crash / timeout."""

    stage: str
    why: str = ""
    outputs: list[np.ndarray] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    @property
    def accepts(self) -> bool:
        """read_model and compile_model both succeeded."""
        return self.stage in ("ok", "infer")


class OpenVINO:
    """`check(xml, inputs)` -> Verdict, through a worker process restarted whenever it dies or hangs."""

    def __init__(self, timeout: float = 60.0):
        self.timeout = timeout
        self.proc: subprocess.Popen[str] | None = None
        self.tmp = tempfile.TemporaryDirectory(prefix="irlint-diff-")
        self.restarts = 0
        self.unrepeated_crashes = 0  # deaths a fresh worker did not repeat on the same model
        self.unrepeated_hangs = 0  # hangs a fresh worker did not repeat (it answered, or died: the model's crash)

    def __enter__(self) -> OpenVINO:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            env = dict(os.environ, OMP_NUM_THREADS="1")
            self.proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        return self.proc

    def _kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            self.restarts += 1

    def check(self, xml: Path, inputs: dict[str, np.ndarray] | None) -> Verdict:
        """A worker that dies on the model is restarted and asked once more: a death that a fresh worker
        does not repeat comes from the worker's past (it has run other models) or the machine, not from
        the model, and the fresh worker's verdict stands. A death that repeats, or a fresh worker that
        gives no answer in time (a process that aborts may hang instead of dying), is the model's crash.
        A hang is asked again too: a fresh worker's answer, or its death, stands; a second hang is the
        model's."""
        v = self._check(xml, inputs)
        if v.stage == "crash":
            again = self._check(xml, inputs)
            if again.stage in ("crash", "timeout"):
                return v
            self.unrepeated_crashes += 1
            return again
        if v.stage == "timeout":  # a worker that hangs may do so from its past too (a dying one may hang)
            again = self._check(xml, inputs)
            if again.stage != "timeout":
                self.unrepeated_hangs += 1
                return again
        return v

    def _check(self, xml: Path, inputs: dict[str, np.ndarray] | None) -> Verdict:
        proc = self._start()
        inp = out = None
        if inputs is not None:
            inp = os.path.join(self.tmp.name, "in.npz")
            out = os.path.join(self.tmp.name, "out.npz")
            np.savez(inp, **inputs)
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps({"xml": str(xml), "inputs": inp, "out": out}) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            self._kill()
            return Verdict("crash", "the worker died before the model was sent")
        ready, _, _ = select.select([proc.stdout], [], [], self.timeout)
        if not ready:
            self._kill()
            return Verdict("timeout", f"no answer in {self.timeout:.0f} s")
        line = proc.stdout.readline()
        if not line:
            code = proc.wait()
            self.proc = None
            self.restarts += 1
            return Verdict("crash", f"the process died (exit code {code})")
        ans = json.loads(line)
        v = Verdict(ans["stage"], ans.get("why", ""), names=ans.get("names", []))
        if v.stage == "ok" and out is not None:
            with np.load(out) as z:
                v.outputs = [z[f"o{i}"] for i in range(len(z.files))]
        return v

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        self.tmp.cleanup()
