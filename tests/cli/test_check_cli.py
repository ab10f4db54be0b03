"""`irlint check`: exit codes, formats, selection, config, directories, parallel runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from irlint.cli.main import main

BAD_EDGE = ('to-layer="6" to-port="1"', 'to-layer="6" to-port="7"')


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def test_clean_model_exits_zero(small_ti: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(small_ti)]) == 0
    out = capsys.readouterr().out
    assert "[error]" not in out and "All checks passed" in out


def test_findings_exit_one_and_json_contract(broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*BAD_EDGE)
    assert main(["check", "--format", "json", str(path)]) == 1
    diags = json.loads(capsys.readouterr().out)
    assert isinstance(diags, list) and diags
    g103 = [d for d in diags if d["code"] == "G103"]
    assert g103, diags
    d = g103[0]
    for key in ("path", "line", "column", "code", "severity", "message", "rule", "layer", "related", "hint"):
        assert key in d
    assert d["severity"] == "error" and d["rule"] == "edge-unknown-port"
    line = path.read_text().splitlines()[d["line"] - 1]
    assert 'to-port="7"' in line


def test_bare_invocation_means_check(broken_copy) -> None:
    path = broken_copy(*BAD_EDGE)
    res = run_cli(str(path))
    assert res.returncode == 1, res.stderr
    assert "G103" in res.stdout and "Traceback" not in res.stderr


def test_missing_file_exits_two_without_traceback(tmp_path: Path) -> None:
    res = run_cli(str(tmp_path / "nope.xml"))
    assert res.returncode == 2
    assert "Traceback" not in res.stderr + res.stdout


def test_malformed_xml_exits_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "m.xml"
    p.write_text('<?xml version="1.0"?>\n<net name="x" version="11">\n  <layers>\n</net>\n')
    assert main(["--format", "json", str(p)]) == 2
    (d,) = json.loads(capsys.readouterr().out)
    assert d["code"] == "IR001" and d["line"] == 4


def test_select_and_ignore_by_prefix(broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*BAD_EDGE)
    assert main(["--format", "json", "--select", "G1", "--ignore", "G103", str(path)]) in (0, 1)
    codes = {d["code"] for d in json.loads(capsys.readouterr().out)}
    assert "G103" not in codes and all(c.startswith("G1") for c in codes)
    assert main(["--format", "json", "--select", "T", str(path)]) in (0, 1)
    codes = {d["code"] for d in json.loads(capsys.readouterr().out)}
    assert all(c.startswith("T") for c in codes)


def test_exit_zero(broken_copy) -> None:
    path = broken_copy(*BAD_EDGE)
    assert main(["--exit-zero", str(path)]) == 0


def test_config_in_pyproject(broken_copy, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*BAD_EDGE)
    (tmp_path / "pyproject.toml").write_text('[tool.irlint]\nignore = ["G103", "G104"]\nformat = "json"\n')
    main([str(path)])
    codes = {d["code"] for d in json.loads(capsys.readouterr().out)}
    assert "G103" not in codes


def test_bad_config_is_a_usage_error(small_ti: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "irlint.toml"
    cfg.write_text("[tool.irlint]\nselcet = ['G']\n")
    res = run_cli("--config", str(cfg), str(small_ti))
    assert res.returncode == 2 and "selcet" in res.stderr and "Traceback" not in res.stderr


def test_directory_is_searched(small_ti: Path, broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    bad = broken_copy(*BAD_EDGE)
    assert main(["--format", "json", str(small_ti.parent)]) == 0
    capsys.readouterr()
    assert main(["--format", "json", str(bad.parent)]) == 1
    paths = {Path(d["path"]).name for d in json.loads(capsys.readouterr().out)}
    assert "broken.xml" in paths


def test_parallel_equals_serial(broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    a = broken_copy(*BAD_EDGE, name="a")
    b = broken_copy('to-layer="3" to-port="1"', 'to-layer="3" to-port="9"', name="b")
    main(["--format", "json", str(a), str(b)])
    serial = json.loads(capsys.readouterr().out)
    main(["-j", "2", "--format", "json", str(a), str(b)])
    parallel = json.loads(capsys.readouterr().out)
    main(["-j", "1", "--format", "json", str(a), str(b)])
    one_process = json.loads(capsys.readouterr().out)
    assert serial == parallel == one_process and {Path(d["path"]).name for d in serial} == {"a.xml", "b.xml"}
    assert main(["-j", "0", str(a)]) == 2
    assert "-j needs a positive number" in capsys.readouterr().err


def test_rules_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "G101" in out and "duplicate-layer-id" in out
    assert main(["explain", "G101"]) == 0
    text = capsys.readouterr().out
    for section in ("What it checks", "Why it matters", "Example", "How to fix"):
        assert section in text
    assert main(["explain", "duplicate-layer-id"]) == 0
    assert main(["explain", "ZZ999"]) == 2


def test_version_fast_path() -> None:
    res = run_cli("--version")
    assert res.returncode == 0 and res.stdout.startswith("irlint ")


def test_colour_follows_tty_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from irlint.cli.check_cmd import use_color

    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color("auto", Tty()) and not use_color("auto", object()) and use_color("always", object())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color("auto", Tty()) and not use_color("never", Tty())
