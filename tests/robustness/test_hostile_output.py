"""What irlint writes stays valid and true whatever the model and its file are called: hostile layer and model
names and file names that are not UTF-8 through every report format and baselines, 255-byte names under
`--fix`, `--` before a file, an ASCII-only stdout, a full disk while a trace spills, and a `[*]` mark that
`--fix` honours."""

from __future__ import annotations

import errno
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from tests.robustness.limits import EXAMPLES, MEMORY_CAP

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "rules" / "fixtures"
FORMATS = ["text", "concise", "json", "sarif", "github", "junit"]
# Layer and model names as XML attribute values (entities decoded by the parser): DOT and HTML-like label
# injection, a workflow command after a newline, the runner's own escapes, CR, C1 and bidi controls, non-ASCII.
LAYER = "&lt;a&gt; {INJECTED [label=&quot;x&quot;]} digraph &lt;b&gt; ü名"
OTHER = "&lt;/x&gt;&lt;y&gt;&#10;::error file=a::pwn%0A::warning::x&#13;\u0085\u2028'&quot;"
MODEL_NAME = "&lt;/x&gt;&lt;y&gt; &quot;q&quot; {digraph}"


def irlint(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """`python -m irlint ARGS` with bytes out (what a reader of the stream gets), capped as the hostile suites are."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    return subprocess.run(
        [sys.executable, "-m", "irlint", *args],
        capture_output=True,
        timeout=timeout,
        preexec_fn=cap,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def sane(res: subprocess.CompletedProcess) -> str:
    err = res.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err[-3000:]
    return err


def hostile_model(folder: Path, name: str = "hostile.xml") -> Path:
    """G101's failing fixture (a duplicate id: findings that quote two layer names) with hostile names."""
    text = (FIXTURES / "G101" / "fail.xml").read_text()
    text = text.replace('name="all" type', f'name="{LAYER}" type').replace('name="last" type', f'name="{OTHER}" type')
    text = text.replace('<net name="small_ti"', f'<net name="{MODEL_NAME}"')
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def assert_valid(fmt: str, out: bytes, findings: int) -> None:
    """`out` is what its reader accepts: UTF-8 (or ASCII), and JSON, SARIF, XML or one workflow command a line."""
    text = out.decode("utf-8")  # strict: raw undecodable bytes would fail here
    if fmt == "json":
        assert len(json.loads(text)) == findings
    elif fmt == "sarif":
        from tests.report.test_sarif import validate

        validate(json.loads(text))
    elif fmt == "junit":
        assert len(ET.fromstring(out).findall(".//failure")) == findings
    elif fmt == "github":
        lines = re.split(r"\r\n|\r|\n", text.rstrip("\n"))
        assert len(lines) == findings and all(re.match(r"::(error|warning|notice) file=", ln) for ln in lines), text
    else:
        assert not [ln for ln in text.splitlines() if ln.lstrip().startswith("::")], text


@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_names_keep_every_format_valid(tmp_path: Path, fmt: str) -> None:
    xml = hostile_model(tmp_path)
    res = irlint("check", "--format", fmt, xml.name, cwd=tmp_path)
    sane(res)
    assert res.returncode == 1
    assert_valid(fmt, res.stdout, 2)
    if fmt in ("json", "sarif"):
        assert "INJECTED" in res.stdout.decode() and "ü名" in res.stdout.decode()


BAD = os.fsdecode(b"bad\xff\xfename.xml")  # not UTF-8: Python keeps the bytes as U+DCFF U+DCFE


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_name_that_is_not_utf8_keeps_every_format_valid(tmp_path: Path, fmt: str) -> None:
    shutil.copy(FIXTURES / "G101" / "fail.xml", tmp_path / BAD)
    res = irlint("check", "--format", fmt, BAD, cwd=tmp_path)
    sane(res)
    assert res.returncode == 1
    assert_valid(fmt, res.stdout, 2)
    if fmt == "sarif":
        assert json.loads(res.stdout)["runs"][0]["artifacts"][0]["location"]["uri"] == "bad%FF%FEname.xml"
    elif fmt != "junit":
        assert "bad\ufffd\ufffdname.xml" in res.stdout.decode()
    out = tmp_path / f"report.{fmt}"  # the same through -o
    res = irlint("check", "--format", fmt, BAD, "-o", out.name, cwd=tmp_path)
    sane(res)
    assert res.returncode == 1 and out.read_bytes() == irlint("check", "--format", fmt, BAD, cwd=tmp_path).stdout


def test_a_baseline_records_and_matches_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "G101" / "fail.xml", tmp_path / BAD)
    res = irlint("check", "--baseline", "b.json", BAD, cwd=tmp_path)
    assert res.returncode == 0 and "recorded 2 findings" in sane(res)
    recorded = json.loads((tmp_path / "b.json").read_bytes().decode("utf-8"))
    assert {f["path"] for f in recorded["findings"]} == {"bad\ufffd\ufffdname.xml"}
    res = irlint("check", "--baseline", "b.json", BAD, cwd=tmp_path)
    assert res.returncode == 0 and "2 findings in baseline" in sane(res)


def test_fix_writes_a_file_whose_name_has_255_bytes(tmp_path: Path) -> None:
    stem = "m" * 251
    xml = tmp_path / f"{stem}.xml"
    shutil.copy(FIXTURES / "T202" / "fail.xml", xml)
    shutil.copy(FIXTURES / "T202" / "fail.bin", tmp_path / f"{stem}.bin")
    before = xml.read_bytes()
    res = irlint("check", "--fix", xml.name, cwd=tmp_path)
    sane(res)
    assert res.returncode == 0 and "Fixed 1 finding" in res.stdout.decode(), res.stdout
    assert xml.read_bytes() != before and sorted(p.name for p in tmp_path.iterdir()) == [f"{stem}.bin", xml.name]


@pytest.mark.parametrize("args", [["--", "-m.xml"], ["--format", "json", "--", "-m.xml"], ["check", "--", "-m.xml"]])
def test_double_dash_ends_the_options(tmp_path: Path, args: list[str]) -> None:
    shutil.copy(FIXTURES / "G101" / "fail.xml", tmp_path / "-m.xml")
    res = irlint(*args, cwd=tmp_path)
    sane(res)
    assert res.returncode == 1 and b"-m.xml" in res.stdout and b"G101" in res.stdout


ASCII = {
    k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LANG", "LANGUAGE") and not k.startswith("LC_")
} | {"LC_ALL": "C", "PYTHONUTF8": "0"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_ascii_only_stdout_gets_a_whole_report(tmp_path: Path, fmt: str) -> None:
    """`LC_ALL=C PYTHONUTF8=0`: stdout is ASCII. Non-ASCII names are escaped in the format's syntax; JSON
    and SARIF read back to exactly what a UTF-8 stdout gets."""
    xml = hostile_model(tmp_path)
    res = irlint("check", "--format", fmt, xml.name, cwd=tmp_path, env=ASCII)
    sane(res)
    assert res.returncode == 1
    res.stdout.decode("ascii")
    assert_valid(fmt, res.stdout, 2)
    if fmt in ("json", "sarif"):
        utf8 = irlint("check", "--format", fmt, xml.name, cwd=tmp_path)
        assert json.loads(res.stdout) == json.loads(utf8.stdout)
    if fmt in ("text", "concise", "github"):
        assert b"\\u00fc\\u540d" in res.stdout  # ü名, visibly


def test_an_ascii_only_stdout_gets_the_diff(tmp_path: Path) -> None:
    xml = tmp_path / "m.xml"
    text = (FIXTURES / "T202" / "fail.xml").read_text().replace("<!-- expect: T202 -->", "<!-- ü名 -->")
    xml.write_text(text, encoding="utf-8")  # the comment is in the diff's context
    shutil.copy(FIXTURES / "T202" / "fail.bin", tmp_path / "m.bin")
    res = irlint("check", "--diff", xml.name, cwd=tmp_path, env=ASCII)
    sane(res)
    assert res.returncode == 1 and b"+++ b/m.xml" in res.stdout
    assert b"<!-- \\u00fc\\u540d -->" in res.stdout, res.stdout
    res.stdout.decode("ascii")


def _cdata_model(tmp: Path) -> Path:
    """T202's fixture with a declared dim written as CDATA (which parsers read as the number): the fix rewrites
    the dim beside it, and must count the CDATA one as a dim."""
    text = (FIXTURES / "T202" / "fail.xml").read_text()
    text, n = re.subn(r"(<!-- expect: T202 -->\s*<port[^>]*>\s*)<dim>1</dim>", r"\1<dim><![CDATA[1]]></dim>", text)
    assert n == 1
    xml = tmp / "cdata.xml"
    xml.write_text(text)
    shutil.copy(FIXTURES / "T202" / "fail.bin", tmp / "cdata.bin")
    return xml


def test_a_finding_marked_fixable_is_fixed_when_a_dim_is_cdata(tmp_path: Path) -> None:
    xml = _cdata_model(tmp_path)
    res = irlint("check", xml.name, cwd=tmp_path)
    assert res.returncode == 1 and b"T202 [*]" in res.stdout, res.stdout
    res = irlint("check", "--fix", xml.name, cwd=tmp_path)
    sane(res)
    assert res.returncode == 0 and b"Fixed 1 finding" in res.stdout, res.stdout
    assert "<dim><![CDATA[1]]></dim>" in xml.read_text()  # the dim that was right is left as written
    assert irlint("check", xml.name, cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("spelling", ["<!-- was 5 -->6", "<?pi x?>6", "<![CDATA[6]]>", "6<!-- c --><![CDATA[]]>&#x20;"])
def test_a_finding_marked_fixable_is_fixed_whatever_the_wrong_dim_holds(tmp_path: Path, spelling: str) -> None:
    """The wrong dim itself written with a comment, a processing instruction, CDATA or references (all read as
    6 by a parser): marked `[*]`, so `--fix` rewrites it (a dim the fix could not find would be left, or the
    value written into the dim beside it)."""
    text = (FIXTURES / "T202" / "fail.xml").read_text()
    wrong = r"(<!-- expect: T202 -->\s*<port[^>]*>\s*<dim>1</dim>\s*)<dim>6</dim>"
    text, n = re.subn(wrong, rf"\1<dim>{spelling}</dim>", text)
    assert n == 1
    xml = tmp_path / "m.xml"
    xml.write_text(text)
    shutil.copy(FIXTURES / "T202" / "fail.bin", tmp_path / "m.bin")
    res = irlint("check", xml.name, cwd=tmp_path)
    assert res.returncode == 1 and b"T202 [*]" in res.stdout, res.stdout
    res = irlint("check", "--fix", xml.name, cwd=tmp_path)
    sane(res)
    assert res.returncode == 0 and b"Fixed 1 finding" in res.stdout, res.stdout
    assert spelling not in xml.read_text()
    assert irlint("check", xml.name, cwd=tmp_path).returncode == 0


class _FullDisk:
    """A file whose every write fails as on a full disk (the spill's files; nothing is written)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._f = open(*args, **kwargs)  # noqa: SIM115

    def write(self, data: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name: str) -> object:
        return getattr(self._f, name)

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()


def test_a_full_disk_while_the_trace_spills_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from irlint.cli.main import main
    from irlint.interp import tracespill

    xml = tmp_path / "endless.xml"  # loop_scan with a trip count of 2^62, its condition staying true
    xml.write_text((EXAMPLES / "loop_scan.xml").read_text())
    blob = bytearray((EXAMPLES / "loop_scan.bin").read_bytes())
    blob[0:8] = np.int64(2**62).tobytes()  # the trip count Const is the first 8 bytes
    (tmp_path / "endless.bin").write_bytes(bytes(blob[:41]) + np.float32(3e38).tobytes())
    spills = tmp_path / "tmp"
    spills.mkdir()
    monkeypatch.setenv("TMPDIR", str(spills))
    monkeypatch.setattr("tempfile.tempdir", None)
    monkeypatch.setattr(tracespill, "open", _FullDisk, raising=False)
    code = main(
        [
            "run",
            str(xml),
            "--inputs",
            str(EXAMPLES / "inputs" / "loop_scan.npz"),
            "--trace",
            str(tmp_path / "t.npz"),
            "--trace-budget",
            "0",
            "--max-iterations",
            "100000",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2, err
    assert "the disk is full" in err and "spilling the trace" in err and "--trace-budget" in err, err
    assert "bug" not in err and "internal error" not in err
    assert list(spills.iterdir()) == [] and not (tmp_path / "t.npz").exists()


def test_an_ascii_only_stdout_gets_the_tables_of_run(tmp_path: Path) -> None:
    xml = tmp_path / "u.xml"
    xml.write_text(
        (EXAMPLES / "loop_scan.xml").read_text().replace('name="acc" type="Result"', 'name="ü名" type="Result"')
    )
    shutil.copy(EXAMPLES / "loop_scan.bin", tmp_path / "u.bin")
    res = irlint("run", xml.name, "--inputs", str(EXAMPLES / "inputs" / "loop_scan.npz"), cwd=tmp_path, env=ASCII)
    sane(res)
    assert res.returncode == 0 and b"\\xfc\\u540d" in res.stdout, res.stdout
