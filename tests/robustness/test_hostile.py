"""Hostile and broken inputs: every command finishes quickly with a diagnostic and exit 0/1/2, no traceback.

The cases: entity expansion, external entities and DTDs, XInclude, processing
instructions, deep nesting, huge attributes, bad encodings, a 1 GB file of junk, absurd shapes,
huge trip counts, endless loops, missing/short/directory .bin, id collisions, self-referencing
back edges. "No access" is proven with a file whose content must not appear in any output.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SECRET = "irlint-hostile-secret-9f3e"


def irlint_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=timeout)


def all_commands(path: Path, tmp: Path) -> list[subprocess.CompletedProcess[str]]:
    """check, run, trace and render in subprocesses; the debugger is built (not run) in-process."""
    limits = ["--max-iterations", "1000", "--memory-budget", str(64 << 20), "--random-inputs"]
    results = [irlint_cli("check", str(path)), irlint_cli("run", str(path), *limits),
               irlint_cli("trace", str(path), "--watch", "0", *limits),
               irlint_cli("render", str(path), "-o", str(tmp / "out.dot"))]
    debug_app(path)
    return results


def debug_app(path: Path) -> None:
    """`irlint debug` on the file: building the app either succeeds or is a UsageError (exit 2)."""
    import argparse

    from irlint.viewer.debug_cmd import make_app

    from irlint.cli.command import UsageError

    args = argparse.Namespace(model=str(path), weights=None, inputs=None, assign=[], seed=0, shape=[],
                              max_iterations=1000, memory_budget=64 << 20, random_inputs=True)
    with contextlib.suppress(UsageError):
        make_app(args)


def assert_handled(results: list[subprocess.CompletedProcess[str]], expect: str | None = None) -> None:
    for res in results:
        out = res.stdout + res.stderr
        assert res.returncode in (0, 1, 2), (res.args, res.returncode, out[-1000:])
        assert "Traceback" not in out, (res.args, out[-2000:])
        assert SECRET not in out
    if expect is not None:
        assert expect in results[0].stdout + results[0].stderr, results[0].stdout[-2000:]


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    p = tmp / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return p


def valid_text() -> str:
    return (EXAMPLES / "lstm_ti.xml").read_text()


def test_entity_bombs_and_external_entities(tmp_path: Path) -> None:
    secret = write(tmp_path, "secret.txt", SECRET)
    lol = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{i} "{("&a" + str(i - 1) + ";") * 10}">' for i in range(1, 12))
    quad = '<!ENTITY q "' + "x" * 100_000 + '">'
    cases = {
        "laughs.xml": f'<?xml version="1.0"?><!DOCTYPE net [{lol}]><net name="&a11;" version="11"><layers/></net>',
        "quadratic.xml": f'<?xml version="1.0"?><!DOCTYPE net [{quad}]><net name="{"&q;" * 1000}" version="11">'
                         "<layers/></net>",
        "xxe.xml": f'<?xml version="1.0"?><!DOCTYPE net [<!ENTITY x SYSTEM "file://{secret}">]>'
                   '<net version="11"><layers><layer id="0" type="Relu" name="a">&x;</layer></layers></net>',
        "dtd.xml": f'<?xml version="1.0"?><!DOCTYPE net SYSTEM "file://{secret}"><net version="11"><layers/></net>',
        "net.xml": '<?xml version="1.0"?><!DOCTYPE net SYSTEM "http://127.0.0.1:9/x.dtd"><net version="11"/>',
        "xinclude.xml": '<?xml version="1.0"?><net version="11" xmlns:xi="http://www.w3.org/2001/XInclude">'
                        f'<layers><xi:include href="file://{secret}" parse="text"/></layers></net>',
        "pi.xml": '<?xml version="1.0"?><?xml-stylesheet href="x.xsl"?><?evil data?><net version="11"><layers/>'
                  "<edges/></net>",
    }
    for name, text in cases.items():
        t0 = time.perf_counter()
        assert_handled(all_commands(write(tmp_path, name, text), tmp_path))
        assert time.perf_counter() - t0 < 60, name


def test_deep_nesting_and_huge_attributes(tmp_path: Path) -> None:
    deep = '<?xml version="1.0"?><net version="11">' + "<a>" * 100_000 + "</a>" * 100_000 + "</net>"
    assert_handled(all_commands(write(tmp_path, "deep.xml", deep), tmp_path), "IR001")
    body = '<layer id="0" name="ti" type="TensorIterator" version="opset1"><body><layers>'
    nested = ('<?xml version="1.0"?><net version="11"><layers>' + body * 1000 + "</layers></body></layer>" * 1000
              + "</layers><edges/></net>")
    assert_handled(all_commands(write(tmp_path, "nested.xml", nested), tmp_path))
    huge = valid_text().replace('name="X"', 'name="' + "X" * 5_000_000 + '"', 1)
    assert_handled(all_commands(write(tmp_path, "huge.xml", huge), tmp_path))


def test_encodings(tmp_path: Path) -> None:
    latin = valid_text().replace('name="X"', 'name="\u00e9t\u00e9"', 1).encode("latin-1")
    assert_handled(all_commands(write(tmp_path, "latin.xml", latin), tmp_path))  # says utf-8, is latin-1
    utf16 = valid_text().replace('encoding="UTF-8"', "").encode("utf-16")
    assert_handled(all_commands(write(tmp_path, "utf16.xml", utf16), tmp_path))
    unknown = valid_text().replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="x-evil-9"?>')
    assert_handled(all_commands(write(tmp_path, "unknown.xml", unknown), tmp_path))


def test_gigabyte_of_junk_is_refused_without_reading_it(tmp_path: Path) -> None:
    junk = tmp_path / "junk.xml"
    with open(junk, "wb") as f:
        f.write(b"\x00\xff junk " * 100)
        f.truncate(1 << 30)  # sparse: 1 GB that irlint must not read
    t0 = time.perf_counter()
    res = irlint_cli("check", str(junk))
    assert res.returncode == 2 and "IR001" in res.stdout and time.perf_counter() - t0 < 30


def test_absurd_shapes_and_trip_counts(tmp_path: Path) -> None:
    text = valid_text()
    big = text.replace("<dim>5</dim>", "<dim>4611686018427387904</dim>", 1)
    assert_handled(all_commands(write(tmp_path, "bigdim.xml", big), tmp_path))
    (tmp_path / "bigdim.bin").write_bytes((EXAMPLES / "lstm_ti.bin").read_bytes())
    overflow = text.replace('<data shape="1,5,8" element_type="f32" />',
                            '<data shape="9223372036854775807,9223372036854775807,8" element_type="f32" />', 1)
    p = write(tmp_path, "overflow.xml", overflow)
    (tmp_path / "overflow.bin").write_bytes((EXAMPLES / "lstm_ti.bin").read_bytes())
    assert_handled(all_commands(p, tmp_path))
    neg = text.replace("<dim>5</dim>", "<dim>-5</dim>", 1)
    assert_handled(all_commands(write(tmp_path, "neg.xml", neg), tmp_path), "IR004")


def test_huge_trip_count_stops_at_max_iterations(tmp_path: Path) -> None:
    import numpy as np

    loop = (EXAMPLES / "loop_scan.xml").read_text()
    blob = bytearray((EXAMPLES / "loop_scan.bin").read_bytes())
    blob[0:8] = np.int64(2**62).tobytes()  # the trip count Const is the first 8 bytes
    # and make the body condition always true: compare with a huge threshold
    p = write(tmp_path, "trip.xml", loop)
    (tmp_path / "trip.bin").write_bytes(bytes(blob[:41]) + np.float32(3e38).tobytes())
    t0 = time.perf_counter()
    res = irlint_cli("run", str(p), "--max-iterations", "500", "--random-inputs")
    assert res.returncode == 1 and "max-iterations 500" in res.stderr and time.perf_counter() - t0 < 60


def test_weights_missing_short_directory(tmp_path: Path) -> None:
    text = valid_text()
    p = write(tmp_path, "nobin.xml", text)
    assert_handled(all_commands(p, tmp_path), "W301")
    p = write(tmp_path, "short.xml", text)
    (tmp_path / "short.bin").write_bytes(b"\x00" * 10)
    assert_handled(all_commands(p, tmp_path), "W302")
    p = write(tmp_path, "dirbin.xml", text)
    (tmp_path / "dirbin.bin").mkdir()
    assert_handled(all_commands(p, tmp_path), "W301")


def test_id_collisions_and_self_referencing_back_edges(tmp_path: Path) -> None:
    text = valid_text()
    bin_ = (EXAMPLES / "lstm_ti.bin").read_bytes()
    collide = text.replace('<layer id="4" name="Y"', '<layer id="3" name="Y"', 1)
    selfref = text.replace('<edge from-layer="11" to-layer="1" />', '<edge from-layer="1" to-layer="1" />', 1)
    for name, t in (("collide.xml", collide), ("selfref.xml", selfref)):
        p = write(tmp_path, name, t)
        p.with_suffix(".bin").write_bytes(bin_)
        assert_handled(all_commands(p, tmp_path))
    assert "BE501" in irlint_cli("check", str(tmp_path / "selfref.xml")).stdout


@pytest.mark.parametrize("args", [["check", "/nonexistent/x.xml"], ["run", "/nonexistent/x.xml"],
                                  ["render", "/nonexistent/x.xml", "-o", "/tmp/x.dot"], ["explain", "NOPE"],
                                  ["check", "--select"], ["frobnicate-not-a-file.xml"]])
def test_usage_errors_exit_two(args: list[str]) -> None:
    res = irlint_cli(*args)
    assert res.returncode == 2 and "Traceback" not in res.stderr


def test_oversized_xml_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.xml"
    with open(big, "wb") as f:
        f.write(b'<?xml version="1.0"?>\n<net version="11">')
        f.truncate(600 * 1024**2)  # sparse, starts like XML
    res = irlint_cli("check", str(big))
    assert res.returncode == 2 and "MiB of XML" in res.stdout + res.stderr and "Traceback" not in res.stderr
