"""`.pre-commit-hooks.yaml`: the hooks select IR .xml files and their entries run as pre-commit runs them."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hooks() -> list[dict[str, str]]:
    """The hook list, read with a parser for the flat `- key: value` subset the file uses (no yaml
    dependency for one small file)."""
    out: list[dict[str, str]] = []
    for line in (ROOT / ".pre-commit-hooks.yaml").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^(- |  )(\w[\w-]*): (.*)$", line)
        assert m, f"unexpected line {line!r}"
        if m.group(1) == "- ":
            out.append({})
        out[-1][m.group(2)] = m.group(3).strip().strip('"')
    return out


def test_hooks_are_declared() -> None:
    got = {h["id"]: h for h in hooks()}
    assert set(got) == {"irlint", "irlint-fix"}
    for h in got.values():
        assert h["language"] == "python" and h["entry"].startswith("irlint check")
        assert re.search(h["files"], "models/lstm.xml") and not re.search(h["files"], "models/lstm.bin")


def test_hook_entry_runs_like_pre_commit(small_ti: Path, broken_copy) -> None:
    """pre-commit appends the staged file names to `entry`; exit 0 passes the commit, non-zero blocks it."""
    entry = shlex.split(hooks()[0]["entry"])
    assert entry[0] == "irlint"
    run = [sys.executable, "-m", "irlint", *entry[1:]]
    ok = subprocess.run([*run, str(small_ti)], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = broken_copy('to-layer="6" to-port="1"', 'to-layer="6" to-port="7"')
    res = subprocess.run([*run, str(bad)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 1 and "G103" in res.stdout
