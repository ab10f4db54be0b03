"""Fuzzing: structure-aware mutations of real IRs and byte-level corruption never crash irlint.

For every case: `irlint.check` returns diagnostics (never raises), loading never writes the
inputs, and a model that lints clean either runs to completion or stops with an ExecutionError
within the limits. A bounded number of examples runs in the suite; `IRLINT_FUZZ_EXAMPLES=N`
raises it (docs/security.md records a longer run).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

import irlint
from irlint.diagnostics import Severity
from irlint.interp import ExecutionError, Options, run
from irlint.ir import loader
from tests import ifmodels
from tests.ir.test_streaming import dump
from tests.rules.valid_irs import ALL

ov = pytest.importorskip("openvino")
EXAMPLES = int(os.environ.get("IRLINT_FUZZ_EXAMPLES", "60"))
# TI/Loop configurations and If models (an If in a Loop body, a Loop in an If branch)
BUILDERS = {**{n: ALL[n] for n in ("ti_forward", "ti_lstm", "loop_while", "loop_in_ti", "loop_sliced_input")},
            "if_in_loop": ifmodels.if_in_loop, "loop_in_if": ifmodels.loop_in_if}
SEEDS = list(BUILDERS)
VALUES = ["-1", "0", "1", "2", "7", "-7", "999999999999", "-9223372036854775809", "x", "", "1.5", "?", "1..3",
          "FP32", "I64", "BOOL", "FP99", "true", "nan", "\u00e9", "-2147483648"]


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[bytes, bytes]]:
    d = tmp_path_factory.mktemp("seeds")
    out = {}
    for name in SEEDS:
        p = d / f"{name}.xml"
        ov.save_model(BUILDERS[name](), str(p), compress_to_fp16=False)
        out[name] = (p.read_bytes(), p.with_suffix(".bin").read_bytes())
    return out


def mutate(xml: bytes, rnd: random.Random, n: int) -> bytes:
    root = etree.fromstring(xml)
    elements = [e for e in root.iter() if isinstance(e.tag, str) and e is not root]
    for _ in range(n):
        el = rnd.choice(elements)
        op = rnd.randrange(6)
        if op == 0 and el.attrib:  # change an attribute value
            el.set(rnd.choice(list(el.attrib)), rnd.choice(VALUES))
        elif op == 1 and el.getparent() is not None:  # delete an element
            el.getparent().remove(el)
            elements = [e for e in root.iter() if isinstance(e.tag, str) and e is not root]
        elif op == 2 and el.getparent() is not None:  # duplicate an element
            el.addnext(etree.fromstring(etree.tostring(el)))
        elif op == 3 and el.tag == "dim":
            el.text = rnd.choice(VALUES)
        elif op == 4:  # remove an attribute
            if el.attrib:
                del el.attrib[rnd.choice(list(el.attrib))]
        else:  # move an element elsewhere
            other = rnd.choice(elements)
            if other is not el and el not in other.iterancestors() and el.getparent() is not None:
                other.append(el)
                elements = [e for e in root.iter() if isinstance(e.tag, str) and e is not root]
    return etree.tostring(root)


def exercise(path: Path) -> None:
    """The property: check never raises; a clean model runs or stops with ExecutionError."""
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    diags = irlint.check(path)
    assert isinstance(diags, list)
    assert not [d for d in diags if d.code == "IR900"], [d.message for d in diags if d.code == "IR900"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before, "the input file was modified"
    if not any(d.severity is Severity.ERROR for d in diags):
        model = irlint.load(path)
        inputs = {}
        for p in model.graph.parameters():
            from irlint.ir.declared import declared_info

            info = declared_info(p)
            if info.etype is None or info.etype.dtype is None or info.shape is None:
                return
            shape = [d.value if d.value is not None else 1 for d in info.shape]
            if int(np.prod(shape, dtype=np.int64)) > 1 << 20:
                return
            inputs[p.name] = np.ones(shape, info.etype.dtype)
        with contextlib.suppress(ExecutionError):
            run(model, inputs, Options(max_iterations=2000, memory_budget=64 << 20))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.sampled_from(SEEDS), salt=st.integers(0, 2**32 - 1), n=st.integers(1, 6))
def test_structure_aware_mutations(seeds, tmp_path_factory, seed: str, salt: int, n: int) -> None:
    xml, blob = seeds[seed]
    d = tmp_path_factory.mktemp("m")
    path = d / "m.xml"
    path.write_bytes(mutate(xml, random.Random(salt), n))
    (d / "m.bin").write_bytes(blob)
    exercise(path)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.sampled_from(SEEDS), flips=st.lists(st.tuples(st.integers(0, 1 << 30), st.integers(0, 255)),
                                                  min_size=1, max_size=20), cut=st.integers(0, 1 << 30),
       truncate_bin=st.booleans())
def test_byte_level_corruption(seeds, tmp_path_factory, seed: str, flips, cut: int, truncate_bin: bool) -> None:
    xml, blob = seeds[seed]
    data = bytearray(xml)
    for pos, value in flips:
        data[pos % len(data)] = value
    if cut % 3 == 0:
        data = data[: cut % len(data)]
    d = tmp_path_factory.mktemp("b")
    path = d / "b.xml"
    path.write_bytes(bytes(data))
    (d / "b.bin").write_bytes(blob[: len(blob) // 2] if truncate_bin else blob)
    exercise(path)


def test_cli_on_a_mutant_has_no_traceback(seeds, tmp_path: Path) -> None:
    xml, blob = seeds["ti_lstm"]
    rnd = random.Random(1234)
    for i in range(5):
        p = tmp_path / f"m{i}.xml"
        p.write_bytes(mutate(xml, rnd, 4))
        (tmp_path / f"m{i}.bin").write_bytes(blob)
        for cmd in (["check"], ["run", "--random-inputs"], ["render", "-o", str(tmp_path / f"m{i}.dot")]):
            args = [*cmd[:1], str(p), *cmd[1:]]
            res = subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=120)
            assert res.returncode in (0, 1, 2), (args, res.returncode)
            assert "Traceback" not in res.stderr + res.stdout, (args, res.stderr[-2000:])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.sampled_from(SEEDS), salt=st.integers(0, 2**32 - 1), n=st.integers(0, 6), where=st.integers(0, 1 << 30),
       flips=st.lists(st.tuples(st.integers(0, 1 << 30), st.integers(0, 255)), max_size=3))
def test_split_loading_of_mutants_is_the_serial_loading(seeds, tmp_path_factory, seed: str, salt: int, n: int,
                                                        where: int, flips) -> None:
    """Wherever a mutated or corrupted file is split between two processes, the model, its diagnostics
    and every location are what the serial loader gives (irlint.ir.twocore)."""
    xml, _blob = seeds[seed]
    data = bytearray(mutate(xml, random.Random(salt), n) if n else xml)
    for pos, value in flips:
        data[pos % len(data)] = value
    path = tmp_path_factory.mktemp("s") / "s.xml"
    path.write_bytes(bytes(data))
    starts = [m.start() for m in re.finditer(rb"<layer[\s>]", bytes(data))]
    at = starts[where % len(starts)] if starts else where % len(data)
    model, _used = loader._load(str(path), None, False, split_at=at)
    assert dump(model) == dump(loader.load(path))


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/stat").exists(), reason="needs fork and /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_a_check_of_mutants_leaves_nothing_behind(seeds, tmp_path: Path, sig: int) -> None:
    """`check -j 2` of a folder of mutants, signalled while its workers are busy: it ends by the signal
    (or had already finished normally) without a traceback, a process, a temporary file or half a report."""
    from tests.cli.test_interrupts import _group, _start, _stop

    xml, blob = seeds["ti_lstm"]
    rnd = random.Random(int(sig))
    folder = tmp_path / "models"
    folder.mkdir()
    for i in range(40):  # each mutant 20 times: enough work that the signal finds the workers busy
        mutant = mutate(xml, rnd, rnd.randrange(1, 5))
        for j in range(20):
            (folder / f"m{i}_{j}.xml").write_bytes(mutant)
            (folder / f"m{i}_{j}.bin").write_bytes(blob)
    report = tmp_path / "report.txt"
    proc, tmpdir, err = _start(["check", "-j", "2", str(folder), "-o", str(report)], tmp_path)
    try:
        end = time.monotonic() + 60
        while proc.poll() is None and len([p for p in _group(proc.pid) if p[1] == proc.pid]) < 2:
            assert time.monotonic() < end, "irlint never started its workers"
            time.sleep(0.02)
        time.sleep(rnd.uniform(0, 0.2))
    finally:
        _stop(proc, sig)
    text = err.read_text(errors="replace")
    assert "Traceback" not in text and "internal error" not in text, text
    assert list(tmpdir.iterdir()) == [] and not list(tmp_path.rglob(".irlint-*"))
    if proc.returncode == 128 + sig:
        assert len(text.strip().splitlines()) == 1 and not report.exists(), text
    else:  # it finished before the signal came: a complete report
        assert proc.returncode in (0, 1, 2) and report.exists(), (proc.returncode, text)
