"""Hostile paths, arguments and files: irlint never writes an input, never runs a model
folder's code, never hangs on a special file, and stays within time and memory on oversize input.

Every command runs in a subprocess under a time limit and an address-space cap (`limits.cli`).
"""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tests.robustness.limits import EXAMPLES, cli, copy_example, digests, no_traceback

# -- outputs never overwrite inputs ----------------------------------------------------------------

def _overwrite_cases(tmp: Path) -> list[tuple[list[str], list[Path]]]:
    """(arguments, files that must be unchanged) for every output option aimed at an input."""
    xml, inputs = copy_example(tmp)
    bin_ = xml.with_suffix(".bin")
    npy = tmp / "x.npy"
    np.save(npy, np.load(inputs)["x"])
    trace = tmp / "t.npz"
    assert cli("run", str(xml), "--inputs", str(inputs), "--trace", str(trace)).returncode == 0
    (tmp / "to_model.npz").symlink_to(xml)
    (tmp / "to_model.dot").symlink_to(xml)
    (tmp / "to_npy.npz").symlink_to(npy)
    (tmp / "to_trace.dot").symlink_to(trace)
    os.link(xml, tmp / "hard.xml")
    run = ["run", str(xml)]
    return [
        ([*run, "--inputs", str(inputs), "-o", str(inputs)], [inputs]),
        ([*run, "--inputs", str(inputs), "--trace", str(xml)], [xml]),
        ([*run, "--inputs", str(inputs), "--trace", str(inputs)], [inputs]),
        ([*run, "--inputs", str(inputs), "--trace", str(bin_)], [bin_]),
        ([*run, "--inputs", str(inputs), "-o", str(tmp / "to_model.npz")], [xml]),
        ([*run, f"x={npy}", "-o", str(tmp / "to_npy.npz")], [npy]),
        ([*run, "--inputs", str(inputs), "-o", str(tmp / "o.npz"), "--trace", str(tmp / "o.npz")], []),
        (["check", str(xml), "-o", str(xml)], [xml]),
        (["check", str(xml), "-o", str(bin_)], [bin_]),
        (["check", str(xml), "-o", str(tmp / "to_model.npz")], [xml]),
        (["check", str(xml), "-o", str(tmp / "hard.xml")], [xml]),
        (["check", str(tmp), "-o", str(xml)], [xml]),
        (["check", str(xml), "--baseline", str(bin_), "--baseline-update"], [bin_]),
        (["check", str(xml), "--baseline", str(xml), "--baseline-update"], [xml]),
        (["check", str(xml), "--baseline", str(tmp / "to_model.npz"), "--baseline-update"], [xml]),
        (["check", str(xml), "--baseline", str(tmp / "hard.xml"), "--baseline-update"], [xml]),
        (["render", str(xml), "-o", str(tmp / "to_model.dot")], [xml]),
        (["render", str(xml), "-o", str(tmp / "to_trace.dot"), "--trace", str(trace), "--iteration", "0"],
         [trace]),
    ]


def test_no_output_option_overwrites_an_input(tmp_path: Path) -> None:
    for args, protected in _overwrite_cases(tmp_path):
        before = digests(*protected, *tmp_path.glob("loop_scan*"))
        res = cli(*args)
        out = no_traceback(res)
        assert res.returncode == 2 and "never writes over a file it reads" in res.stderr, (args, out)
        assert digests(*before) == before, args
        assert "output" not in res.stdout, args  # refused before anything ran


def test_outputs_are_written_atomically(tmp_path: Path) -> None:
    xml, inputs = copy_example(tmp_path)
    out = tmp_path / "out.npz"
    out.write_bytes(b"previous result")
    # a run that stops (RUN-ITERATIONS) leaves the previous output as it was and no temporary file
    res = cli("run", str(xml), "--inputs", str(inputs), "-o", str(out), "--trace", str(tmp_path / "t.npz"),
              "--max-iterations", "1")
    no_traceback(res)
    assert res.returncode == 1 and "RUN-ITERATIONS" in res.stderr
    assert out.read_bytes() == b"previous result" and not (tmp_path / "t.npz").exists()
    assert not list(tmp_path.glob(".irlint-*"))
    res = cli("run", str(xml), "--inputs", str(inputs), "-o", str(out))
    assert res.returncode == 0 and set(np.load(out).files) == {"acc", "history"}
    assert not list(tmp_path.glob(".irlint-*"))
    # a symlinked output is followed: the file it points at is replaced, the link stays
    target = tmp_path / "real.npz"
    (tmp_path / "link.npz").symlink_to(target)
    assert cli("run", str(xml), "--inputs", str(inputs), "-o", str(tmp_path / "link.npz")).returncode == 0
    assert (tmp_path / "link.npz").is_symlink() and set(np.load(target).files) == {"acc", "history"}


@pytest.mark.parametrize("args", [
    ["check", "{xml}", "-o", "{tmp}/missing/report.txt"],
    ["run", "{xml}", "--inputs", "{inputs}", "--trace", "{tmp}/missing/t.npz"],
    ["run", "{xml}", "--inputs", "{inputs}", "-o", "{tmp}/missing/o.npz"],
    ["render", "{xml}", "-o", "{tmp}/missing/g.dot"],
    ["run", "{xml}", "--inputs", "{inputs}", "-o", "/dev/null"],
    ["check", "{xml}", "-o", "/dev/null"],
])
def test_unusable_output_paths_are_usage_errors(tmp_path: Path, args: list[str]) -> None:
    xml, inputs = copy_example(tmp_path)
    res = cli(*(a.format(xml=xml, inputs=inputs, tmp=tmp_path) for a in args))
    no_traceback(res)
    assert res.returncode == 2 and ("does not exist" in res.stderr or "writes only regular files" in res.stderr)
    assert res.stdout == ""  # nothing ran


def test_baselines_never_destroy_what_they_are_given(tmp_path: Path) -> None:
    """--baseline goes through -o's checks: a model read as a baseline is refused, special files are never
    replaced, --baseline-update rewrites only an irlint baseline, and a symlink stays a symlink."""
    xml, _ = copy_example(tmp_path)
    check = ["check", str(xml), "--baseline"]
    res = cli(*check, str(xml))  # read, not written: not a baseline
    assert res.returncode == 2 and "is not an irlint baseline" in no_traceback(res)
    other = tmp_path / "notes.json"
    other.write_text('{"notes": 1}\n')
    for args in ([str(other), "--baseline-update"], [str(other)]):
        res = cli(*check, *args)
        err = no_traceback(res)
        assert res.returncode == 2 and "is not an irlint baseline" in err and len(res.stderr.splitlines()) == 1, err
        assert other.read_text() == '{"notes": 1}\n' and res.stdout == ""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for special in (fifo, Path("/dev/null")):
        for extra in ([], ["--baseline-update"]):
            res = cli(*check, str(special), *extra, timeout=60)
            assert res.returncode == 2 and "regular files" in no_traceback(res), (special, extra)
    assert fifo.exists() and not fifo.is_file() and Path("/dev/null").is_char_device()
    link = tmp_path / "base.json"
    link.symlink_to(tmp_path / "real.json")
    for extra in ([], ["--baseline-update"]):  # recorded, then rewritten: through the link, atomically
        res = cli(*check, str(link), *extra)
        assert res.returncode == 0 and "recorded" in no_traceback(res)
        assert link.is_symlink() and '"irlint-baseline": 2' in (tmp_path / "real.json").read_text()
        assert oct((tmp_path / "real.json").stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    assert not list(tmp_path.glob(".irlint-*")) and not list(tmp_path.glob(".base.json*"))
    res = cli(*check, str(link), "-o", str(tmp_path / "real.json"))  # the report never over the baseline
    assert res.returncode == 2 and "never writes over a file it reads" in no_traceback(res)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# -- special files are never read -----------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "device"])
@pytest.mark.parametrize("args", [
    ["check", "{bad}"], ["check", "{bad}", "--weights", "{bad}"], ["check", "{xml}", "--config", "{bad}"],
    ["run", "{bad}"], ["run", "{xml}", "--inputs", "{bad}"], ["run", "{xml}", "x={bad}"],
    ["trace", "{bad}", "--watch", "0"], ["trace", "{xml}", "--inputs", "{bad}", "--watch", "0"],
    ["render", "{bad}", "-o", "{tmp}/g.dot"],
    ["render", "{xml}", "-o", "{tmp}/g.dot", "--trace", "{bad}", "--iteration", "0"],
    ["compare", "{bad}"], ["compare", "{xml}", "--inputs", "{bad}"], ["debug", "{bad}"],
])
def test_fifos_and_devices_are_refused_for_every_input(tmp_path: Path, kind: str, args: list[str]) -> None:
    xml, _ = copy_example(tmp_path)
    if kind == "fifo":
        bad = tmp_path / "pipe.xml"
        os.mkfifo(bad)
    else:
        bad = Path("/dev/zero")
    res = cli(*(a.format(xml=xml, bad=bad, tmp=tmp_path) for a in args), timeout=60)
    out = no_traceback(res)
    assert res.returncode == 2 and "regular file" in out, (args, out)


def test_weights_that_are_a_fifo_or_device_are_a_finding(tmp_path: Path) -> None:
    xml, _ = copy_example(tmp_path)
    fifo = tmp_path / "w.bin"
    os.mkfifo(fifo)
    for weights in (fifo, Path("/dev/zero")):
        for command, code in (("check", 1), ("run", 2)):  # a model without its weights cannot be run: exit 2
            res = cli(command, str(xml), "--weights", str(weights))
            no_traceback(res)
            assert res.returncode == code and "W301" in res.stdout + res.stderr and "not a regular file" in \
                res.stdout + res.stderr


def test_oversized_config_is_refused_before_reading(tmp_path: Path) -> None:
    xml, _ = copy_example(tmp_path)
    big = tmp_path / "irlint.toml"
    with open(big, "wb") as f:
        f.truncate(64 << 20)  # sparse
    res = cli("check", str(xml), "--config", str(big), memory=1 << 30)
    no_traceback(res)
    assert res.returncode == 2 and "more than" in res.stderr
    # discovered beside the model: a sparse 2 GB pyproject.toml is not read, a FIFO does not block
    beside = tmp_path / "pyproject.toml"
    with open(beside, "wb") as f:
        f.truncate(2 << 30)
    res = cli("check", str(xml), memory=1 << 30, cwd=tmp_path)
    assert res.returncode == 0, no_traceback(res)
    beside.unlink()
    os.mkfifo(beside)
    res = cli("check", str(xml), cwd=tmp_path)
    assert res.returncode == 0, no_traceback(res)


# -- a model's folder never supplies code --------------------------------------------------------

PACK = '''
from pathlib import Path
Path({marker!r}).write_text("imported")
'''


def _evil_folder(tmp: Path) -> tuple[Path, Path]:
    folder = tmp / "downloads" / "model"
    folder.mkdir(parents=True)
    xml, _ = copy_example(folder)
    (folder / "pack").mkdir()
    marker = tmp / "IMPORTED"
    (folder / "pack" / "evil.py").write_text(PACK.format(marker=str(marker)))
    (folder / "pyproject.toml").write_text('[tool.irlint]\nrules = ["pack"]\nignore = ["LP"]\n')
    return xml, marker


def test_rule_packs_beside_a_checked_model_are_never_imported(tmp_path: Path) -> None:
    xml, marker = _evil_folder(tmp_path)
    work = tmp_path / "repo"
    work.mkdir()
    for command in (["check", str(xml)], ["check", str(xml.parent)], ["check", "-j", "2", str(xml), str(xml)]):
        res = cli(*command, cwd=work)
        no_traceback(res)
        assert res.returncode == 0 and not marker.exists(), res.stderr
        assert "not loading the rule packs" in res.stderr
    # the same configuration is trusted when it is the current directory's or given explicitly
    res = cli("check", str(xml), cwd=xml.parent)
    assert res.returncode == 0 and marker.exists() and "not loading" not in res.stderr
    marker.unlink()
    res = cli("check", str(xml), "--config", str(xml.parent / "pyproject.toml"), cwd=work)
    assert res.returncode == 0 and marker.exists()


# -- oversize attributes: refused in linear time -------------------------------------------------

@pytest.mark.parametrize("case", ["long-attribute", "many-attributes", "long-comment"])
def test_oversize_tags_are_refused_quickly(tmp_path: Path, case: str) -> None:
    text = (EXAMPLES / "lstm_ti.xml").read_text()
    if case == "long-attribute":  # 40 MB in one attribute: quadratic in expat without the bound
        text = text.replace('name="X"', 'name="' + "X" * 40_000_000 + '"', 1)
        code = "longer than"
    elif case == "many-attributes":
        text = text.replace('name="X"', 'name="X" ' + " ".join(f'a{i}=""' for i in range(300_000)), 1)
        code = "more than 1024 attributes"
    else:
        text = text.replace("<layers>", "<layers><!--" + "-" * 0 + "c" * 40_000_000 + "-->", 1)
        code = "longer than"
    xml = tmp_path / "big.xml"
    xml.write_text(text)
    for args in (["check", str(xml)], ["check", "-j", "1", str(xml)], ["run", str(xml)],
                 ["render", str(xml), "-o", str(tmp_path / "g.dot")]):
        res = cli(*args, timeout=30, memory=1 << 30)
        out = no_traceback(res)
        assert res.returncode == 2 and "IR001" in out and code in out, (args, out[-2000:])


def test_tag_bounds_leave_real_models_alone() -> None:
    import irlint
    from irlint.ir.reader import MAX_ATTRIBUTES, MAX_TAG_BYTES

    assert MAX_TAG_BYTES >= 16 << 20 and MAX_ATTRIBUTES >= 1024
    for name in ("lstm_ti", "loop_scan", "nested_loop_in_ti"):
        assert not irlint.load(EXAMPLES / f"{name}.xml").diagnostics


# -- decompression bombs and lying array headers ---------------------------------------------------

def _npy_header(shape: tuple[int, ...]) -> bytes:
    import io

    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": shape})
    return buf.getvalue()


def test_decompression_bomb_is_refused_before_decompressing(tmp_path: Path) -> None:
    xml, _ = copy_example(tmp_path)
    bomb = tmp_path / "bomb.npz"
    zeros = bytes(16 << 20)
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf, \
            zf.open("x.npy", "w", force_zip64=True) as f:
        f.write(_npy_header((16 * (256 << 20) // 8,)))
        for _ in range(16):  # 256 MiB of zeros: about 250 KB compressed
            f.write(zeros)
    assert bomb.stat().st_size < 2 << 20
    res = cli("run", str(xml), "--inputs", str(bomb), "--memory-budget", str(64 << 20), memory=1 << 30)
    no_traceback(res)
    assert res.returncode == 2 and "decompress to more than" in res.stderr
    liar = tmp_path / "liar.npz"
    with zipfile.ZipFile(liar, "w") as zf:
        zf.writestr("x.npy", _npy_header((1 << 30,)) + bytes(80))  # declares 8 GiB, holds 80 bytes
    for args in (["run", str(xml), "--inputs", str(liar)],
                 ["render", str(xml), "-o", str(tmp_path / "g.dot"), "--trace", str(liar), "--iteration", "0"]):
        res = cli(*args, memory=1 << 30)
        no_traceback(res)
        assert res.returncode == 2 and "declares 8589934592 bytes" in res.stderr, res.stderr


def test_npz_sizes_are_checked_before_any_array_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from irlint.cli import arrays
    from irlint.cli.command import UsageError

    path = tmp_path / "two.npz"
    np.savez(path, a=np.zeros(1000), b=np.zeros(1000))
    read: list[object] = []
    monkeypatch.setattr(arrays.np.lib.format, "read_array", lambda *a, **k: read.append(a))
    with pytest.raises(UsageError, match="decompress to more than"):
        arrays.load_npz(str(path), "--inputs", 12_000)
    assert read == []


def test_npy_with_objects_or_wrong_magic_is_a_clear_error(tmp_path: Path) -> None:
    xml, _ = copy_example(tmp_path)
    obj = tmp_path / "obj.npy"
    np.save(obj, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    res = cli("run", str(xml), f"x={obj}")
    assert res.returncode == 2 and "Python objects" in res.stderr
    res = cli("run", str(xml), "--inputs", str(xml))  # an IR given as inputs
    out = no_traceback(res)
    assert res.returncode == 2 and "neither an .npy nor an .npz" in out and "pickle" not in out
    evil = tmp_path / "evil.npz"
    np.savez(evil, x=np.zeros(3))
    res = cli("render", str(xml), "-o", str(tmp_path / "g.dot"), "--trace", str(evil), "--iteration", "0")
    out = no_traceback(res)
    assert res.returncode == 2 and "not a trace written by `irlint run --trace`" in out and "Expecting" not in out


# -- memory: a growing Loop ends in RUN-BUDGET, never an internal error ---------------------------

def test_doubling_loop_state_ends_in_the_budget_error(tmp_path: Path) -> None:
    from tests.robustness.ov_models import doubling_loop

    xml = doubling_loop(tmp_path / "doubling.xml")
    res = cli("run", str(xml), "--memory-budget", str(64 << 20), "--random-inputs")  # refuses the next Concat
    no_traceback(res)
    assert res.returncode == 1 and "RUN-BUDGET" in res.stderr and "doubling.xml:" in res.stderr
    # the machine runs out first (a 1.5 GiB cap, the default 4 GiB budget): still RUN-BUDGET, exit 1
    for command in (["run", str(xml)], ["trace", str(xml), "--watch", "grow"]):
        res = cli(*command, "--random-inputs", memory=3 << 29, timeout=120)
        no_traceback(res)
        assert res.returncode == 1 and "RUN-BUDGET" in res.stderr, res.stderr[-2000:]


def test_scan_outputs_count_against_the_budget_while_they_grow() -> None:
    """A Loop's concatenated outputs grow with every iteration: the run stops in the iteration that
    passes the budget, not after the last one (loop_scan: 4 iterations, 16 bytes of `history` each)."""
    import irlint
    from irlint.interp import ExecutionError, Options, execute
    from irlint.interp.events import IterationFinished

    model = irlint.load(EXAMPLES / "loop_scan.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "loop_scan.npz"))
    finished = []
    with pytest.raises(ExecutionError) as e:
        for ev in execute(model, inputs, Options(memory_budget=40)):
            if isinstance(ev, IterationFinished):
                finished.append(ev.iteration)
    assert e.value.code == "RUN-BUDGET" and finished == [0, 1, 2]


# -- render: bounded graphviz time ----------------------------------------------------------------

def test_render_collapses_a_huge_body_and_refuses_to_expand_it(tmp_path: Path) -> None:
    relu = ('<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input><port id="0" precision="FP32">'
            '<dim>1</dim></port></input><output><port id="1" precision="FP32"><dim>1</dim></port></output></layer>')
    layers = "".join(relu.format(i=i) for i in range(1, 50_001))
    body = (f'<body><layers><layer id="0" name="p" type="Parameter" version="opset1"><data shape="1" '
            f'element_type="f32"/><output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>'
            f"{layers}</layers><edges/></body>")
    xml = tmp_path / "wide.xml"
    xml.write_text(f'<?xml version="1.0"?><net name="n" version="11"><layers><layer id="0" name="ti" '
                   f'type="TensorIterator" version="opset1">{body}</layer></layers><edges/></net>')
    res = cli("render", str(xml), "-o", str(tmp_path / "g.svg"), "--lint", "--depth", "1", timeout=60)
    no_traceback(res)
    assert res.returncode == 2 and "--collapse" in res.stderr and "--depth" in res.stderr
    assert not (tmp_path / "g.svg").exists()
    res = cli("render", str(xml), "-o", str(tmp_path / "g.svg"), "--lint", timeout=60)  # collapsed by itself
    assert res.returncode == 0 and (tmp_path / "g.svg").exists() and "bodies collapsed" in res.stderr
    res = cli("render", str(xml), "-o", str(tmp_path / "h.svg"), "--collapse", timeout=60)
    assert res.returncode == 0 and (tmp_path / "h.svg").exists()


# -- printers escape what the model says ----------------------------------------------------------

def test_control_characters_in_names_are_escaped_by_every_printer(tmp_path: Path) -> None:
    xml, inputs = copy_example(tmp_path)
    evil = "acc\u202e\u0085\u009b2J"
    text = xml.read_text().replace('name="acc" type="Result"', f'name="{evil}" type="Result"')
    text = text.replace('name="acc_next" type="Result"', f'name="n{evil}" type="Result"')
    xml.write_text(text)
    outs = [cli("run", str(xml), "--inputs", str(inputs)), cli("trace", str(xml), "--inputs", str(inputs),
                                                               "--watch", f"n{evil}")]
    for res in outs:
        out = no_traceback(res)
        assert res.returncode == 0, out
        assert not {"\u202e", "\u0085", "\u009b", "\x1b"} & set(out), out
        assert "\\u202e" in out


@pytest.mark.parametrize("fmt", ["text", "github", "json", "sarif", "junit"])
def test_control_characters_are_escaped_by_every_report_format(tmp_path: Path, fmt: str) -> None:
    evil = "L\u202eS\u0085T\u009bM"
    xml = tmp_path / "evil.xml"
    xml.write_text((EXAMPLES / "broken" / "lstm_ti_broken.xml").read_text().replace('name="LSTMCell_16"',
                                                                                      f'name="{evil}"'))
    res = cli("check", str(xml), "--format", fmt)
    no_traceback(res)
    assert res.returncode == 1 and not {"\u202e", "\u0085", "\u009b"} & set(res.stdout)
    if fmt in ("json", "sarif"):  # escaped losslessly
        import json

        assert evil in json.dumps(json.loads(res.stdout), ensure_ascii=False)


HOSTILE = "\x1b]8;;http://x\x1b\\link\x1b[2J\r\u202e\u0085\u009bN"  # OSC 8 link, screen clear, CR, bidi, C1
RAW = {"\x1b", "\r", "\u202e", "\u0085", "\u009b"}


@pytest.mark.parametrize("args", [
    ["check", "{tmp}/m{e}.xml"], ["run", "{tmp}/m{e}.xml"], ["render", "{tmp}/m{e}.xml", "-o", "{tmp}/g.dot"],
    ["run", "{xml}", "--inputs", "{tmp}/in{e}.npz"], ["run", "{xml}", "x={tmp}/in{e}.npy"],
    ["check", "{xml}", "-o", "{tmp}/no{e}/r.txt"], ["run", "{xml}", "--inputs", "{inputs}", "-o", "{tmp}/no{e}/o.npz"],
    ["run", "{xml}", "--inputs", "{inputs}", "--trace", "{tmp}/no{e}/t.npz"],
    ["render", "{xml}", "-o", "{tmp}/no{e}/g.dot"], ["check", "{xml}", "--config", "{tmp}/c{e}.toml"],
    ["check", "{xml}", "--baseline", "{tmp}/no{e}/b.json"], ["check", "{xml}", "--format", "{e}"],
    ["check", "{xml}", "--bogus{e}"], ["trace", "{xml}", "--inputs", "{inputs}", "--watch", "{e}"],
])
def test_messages_escape_what_they_quote(tmp_path: Path, args: list[str]) -> None:
    """A usage error quoting a path or argument shows its controls as the text report does: an ESC, CR,
    OSC 8 hyperlink or bidi override in a path typed or generated never reaches the terminal raw."""
    xml, inputs = copy_example(tmp_path)
    res = cli(*(a.format(xml=xml, inputs=inputs, tmp=tmp_path, e=HOSTILE) for a in args))
    out = no_traceback(res)
    assert res.returncode == 2 and not RAW & set(out), (args, out)
    assert "\u241b" in out or "\\x1b" in out, out  # shown: ␛ (or argparse's repr)


def test_a_newline_in_a_file_name_starts_no_line(tmp_path: Path) -> None:
    """The text and concise reports print a file name on its line: `x\\n::warning file=y::z.xml` neither forges
    a GitHub Actions command (the runner takes any line that starts with `::` after blanks) nor a
    FILE:LINE:COL finding of its own."""
    import re

    name = "x\n::warning file=y,line=1::forged\nf.xml:1:1: E999 [error] fake\r.xml"
    shutil.copy(Path(__file__).parents[1] / "rules" / "fixtures" / "G101" / "fail.xml", tmp_path / name)
    for fmt in ("text", "concise"):
        res = cli("check", "--format", fmt, str(tmp_path / name))
        out = no_traceback(res)
        assert res.returncode == 1, out
        lines = res.stdout.splitlines()
        assert not [ln for ln in lines if ln.lstrip().startswith("::")], out
        findings = [ln for ln in lines if re.match(r"\s*(-->\s*)?[^ |].*:\d+:\d+", ln)]
        assert findings and all(str(tmp_path / "x\u2424::warning") in ln for ln in findings), out
        assert "\r" not in res.stdout


@pytest.mark.parametrize("ext", ["svg", "html", "dot"])
def test_rendered_names_show_their_controls(tmp_path: Path, ext: str) -> None:
    """SVG, HTML and DOT draw layer names with bidi overrides, isolates, marks and C1 controls made
    visible, as the text report prints them."""
    evil = "L\u202eS\u2066T\u2069U\u200fV\u0085W\u009bX"
    xml, _ = copy_example(tmp_path)
    xml.write_text(xml.read_text().replace('name="acc" type="Result"', f'name="{evil}" type="Result"'))
    out = tmp_path / f"g.{ext}"
    res = cli("render", str(xml), "-o", str(out))
    assert res.returncode == 0, no_traceback(res)
    text = out.read_text(encoding="utf-8")
    assert not {"\u202e", "\u2066", "\u2069", "\u200f", "\u0085", "\u009b"} & set(text)
    assert "L\ufffdS\ufffdT\ufffdU\ufffdV\ufffdW\ufffdX" in text


DEBUG_SCRIPT = """
import asyncio, sys
from argparse import Namespace
from irlint.viewer.debug_cmd import exit_code, make_app
app = make_app(Namespace(model=sys.argv[1], weights=None, inputs=None, assign=[], seed=0, shape=[],
                         max_iterations=1000, memory_budget=4 << 30, random_inputs=True))
async def go():
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("q")
asyncio.run(go())
print("exit", exit_code(app))
"""


def test_debug_of_a_doubling_loop_stops_within_the_memory_cap(tmp_path: Path) -> None:
    """The debugger's `continue` on a Loop that outgrows the machine: the run stops (exit 1), the
    debugger survives (headless Textual in a subprocess capped at 1.5 GiB)."""
    import resource
    import subprocess
    import sys

    from tests.robustness.ov_models import doubling_loop

    xml = doubling_loop(tmp_path / "doubling.xml")

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))

    res = subprocess.run([sys.executable, "-c", DEBUG_SCRIPT, str(xml)], capture_output=True, text=True,
                         timeout=180, preexec_fn=cap, stdin=subprocess.DEVNULL)
    assert res.returncode == 0 and "exit 1" in res.stdout, res.stderr[-3000:]


def test_debug_session_keeps_recorded_tensors_within_the_budget() -> None:
    from irlint.viewer.debugger.session import Session

    import irlint
    from irlint.interp import Options

    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz"))
    budget = 600  # its largest tensor is 512 bytes, the whole run records about 1.2 KB
    session = Session(model, inputs, Options(memory_budget=budget))
    while session.do("continue") is not None:
        pass
    held = sum(a.nbytes for arrays in session.values.values() for a in arrays)
    assert 0 < held <= budget and session.recorder.held == held
    everything = Session(model, inputs, Options())
    while everything.do("continue") is not None:
        pass
    assert sum(a.nbytes for arrays in everything.values.values() for a in arrays) > budget  # the bound bit


def test_debugger_svg_never_overwrites_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The debugger's `r` writes MODEL.debug.svg in the current directory: a symlink of that name
    pointing at the model is refused (and said so in the log), the model untouched."""
    import argparse
    import asyncio

    from irlint.viewer.debug_cmd import make_app

    xml, inputs = copy_example(tmp_path)
    (tmp_path / "loop_scan.debug.svg").symlink_to(xml)
    before = digests(xml)
    monkeypatch.chdir(tmp_path)
    app = make_app(argparse.Namespace(model=str(xml), weights=None, inputs=str(inputs), assign=[], seed=0,
                                      shape=[], max_iterations=1000, memory_budget=1 << 30))

    async def press_r() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("r")
            await pilot.pause()
            log = " ".join(" ".join(str(line.text) for line in app.query_one("#log").lines).split())
            assert "never writes over a file it reads" in log, log  # wherever the pane wrapped the line
            await pilot.press("q")

    asyncio.run(press_r())
    assert digests(xml) == before


def test_debugger_shows_names_literally(tmp_path: Path) -> None:
    """A layer named like Rich markup ('[/]' used to raise MarkupError and end the debugger) or holding
    C1 controls is shown as text, in the tree, the log and the inspector."""
    import argparse
    import asyncio

    from irlint.viewer.debug_cmd import exit_code, make_app

    xml, inputs = copy_example(tmp_path)
    evil = "[/] [b]y\u009b"
    xml.write_text(xml.read_text().replace('name="acc_next"', f'name="{evil}"'))
    app = make_app(argparse.Namespace(model=str(xml), weights=None, inputs=str(inputs), assign=[], seed=0,
                                      shape=[], max_iterations=1000, memory_budget=1 << 30))

    async def step() -> list[str]:
        async with app.run_test(size=(100, 30)) as pilot:
            for key in "ssssssssssssssssssssc":
                await pilot.press(key)
                await pilot.pause()
                await app.workers.wait_for_complete()
            labels = []
            stack = [app.query_one("#graph").root]
            while stack:
                node = stack.pop()
                labels.append(str(node.label))
                stack.extend(node.children)
            await pilot.press("q")
            return labels

    labels = asyncio.run(step())
    assert any("[/] [b]y" in label for label in labels) and not any("\u009b" in label for label in labels)
    assert exit_code(app) == 0
