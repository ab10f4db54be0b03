"""The distribution installs rules/ and viewer/ under the irlint namespace only, from a wheel in a fresh venv."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "lstm_ti.xml"


@pytest.mark.slow
def test_wheel_installs_under_irlint_namespace_and_runs(tmp_path: Path) -> None:
    wheel_dir = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheel_dir),
         str(ROOT)],
        check=True, capture_output=True, text=True,
    )
    wheel = next(wheel_dir.glob("irlint-*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True, text=True)

    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    assert (site / "irlint" / "rules" / "__init__.py").is_file()
    assert (site / "irlint" / "viewer" / "__init__.py").is_file()
    assert not (site / "rules").exists() and not (site / "viewer").exists()

    probe = subprocess.run(
        [str(py), "-c", "import irlint.rules, irlint.viewer; import importlib.util as u; "
         "print(u.find_spec('rules') is None and u.find_spec('viewer') is None)"],
        check=True, capture_output=True, text=True, cwd=tmp_path,
    )
    assert probe.stdout.strip() == "True"

    irlint_exe = env_dir / "bin" / "irlint"
    out = subprocess.run([str(irlint_exe), "rules"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0 and "G101" in out.stdout and "duplicate-layer-id" in out.stdout
    if EXAMPLE.exists():
        res = subprocess.run([str(irlint_exe), str(EXAMPLE)], capture_output=True, text=True, cwd=tmp_path)
        assert res.returncode == 0, res.stdout + res.stderr
        res = subprocess.run([str(py), "-m", "irlint", "--version"], capture_output=True, text=True, cwd=tmp_path)
        assert res.returncode == 0 and "irlint" in res.stdout
