"""An IR version OpenVINO does not read (v6, v7) is reported once and checked no further: exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest

import irlint
from irlint.cli.main import main

FIXTURES = Path(__file__).resolve().parents[1] / "rules" / "fixtures" / "IR003"


@pytest.mark.parametrize("name", ["fail.xml", "fail-v7.xml"])
def test_one_diagnostic_and_nothing_else(name: str) -> None:
    diags = irlint.check(FIXTURES / name)
    assert [(d.code, d.loc.line) for d in diags] == [("IR003", 3)]
    assert "not checked further" in diags[0].message
    assert irlint.load(FIXTURES / name).graph.layers == ()


@pytest.mark.parametrize("version", ["6", "7", "12"])
def test_cli_exits_two(version: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.xml"
    path.write_text((FIXTURES / "fail.xml").read_text().replace('version="7"', f'version="{version}"', 1))
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert out.count("IR003") == 1 and "Traceback" not in out


def test_supported_versions_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "v10.xml"
    path.write_text((FIXTURES / "fail.xml").read_text().replace('version="7"', 'version="10"', 1))
    (tmp_path / "v10.bin").write_bytes((FIXTURES / "fail.bin").read_bytes())
    assert "IR003" not in {d.code for d in irlint.check(path)}
    assert irlint.load(path).graph.layers
