"""Loading on two cores (irlint.ir.twocore): wherever the file is split, the model and every location
and diagnostic are the serial loader's; a split that cannot be trusted is not made."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_streaming import MODELS, dump

from irlint import api
from irlint.ir import loader, twocore
from irlint.ir.model import Model
from irlint.ir.reader import PartialParse, Reader
from irlint.ir.source import file_reader
from irlint.ir.twocore import child, planner

LAYER = re.compile(rb"<layer[\s>]")


def offsets(p: Path, most: int) -> list[int]:
    """Up to `most` `<layer` offsets spread over the file."""
    found = [m.start() for m in LAYER.finditer(p.read_bytes())]
    step = max(1, len(found) // most)
    return found[1::step][:most]


def test_every_split_gives_the_serial_model() -> None:
    used = 0
    for p in MODELS:
        reference = dump(loader.load(p))
        for at in offsets(p, 5):
            model, took = loader._load(str(p), None, False, split_at=at)
            assert dump(model) == reference, (p, at)
            used += took
    assert used > 50  # the child's part was really used, at the top level and in bodies


def test_splits_inside_a_body_and_at_the_top_level_are_both_made() -> None:
    p = Path(__file__).resolve().parents[2] / "examples" / "lstm_ti.xml"
    read, size = file_reader(str(p)), p.stat().st_size
    plans = {planner.find_split(read, size, at) for at in offsets(p, 100)}
    assert {q.owner for q in plans if q} >= {"", "3"}  # the TensorIterator is layer 3


def load_split_at(p: Path, marker: bytes, owner: str) -> tuple[Model, bool]:
    """Load `p` split where `marker` starts, after checking which `<layers>` the planner guesses holds it."""
    at = p.read_bytes().find(marker)
    assert planner.find_split(file_reader(str(p)), p.stat().st_size, at) == (at, owner)
    return loader._load(str(p), None, False, split_at=at)


def xml(body: str) -> str:
    return f'<?xml version="1.0"?>\n<net name="n" version="11">\n{body}\n</net>\n'


LAYERS = "".join(f'<layer id="{i}" name="l{i}" type="Parameter" version="opset1"><data shape="1" '
                 f'element_type="f32"/><output><port id="0" precision="FP32"><dim>1</dim></port></output></layer>\n'
                 for i in range(40))


@pytest.mark.parametrize("extra", ["<!-- a comment -->", "<![CDATA[x]]>", "<?pi x?>"])
def test_no_split_when_a_byte_scan_could_be_wrong(extra: str, tmp_path: Path) -> None:
    p = tmp_path / "m.xml"
    p.write_text(xml(f"<layers>\n<info>{extra}</info>{LAYERS}</layers>"))
    assert planner.find_split(file_reader(str(p)), p.stat().st_size) is None
    p.write_text(xml(f"<layers>\n{LAYERS}</layers>"))
    assert planner.find_split(file_reader(str(p)), p.stat().st_size) == (p.read_bytes().find(b'<layer id="20"'), "")


def test_no_split_in_another_encoding(tmp_path: Path) -> None:
    p = tmp_path / "m.xml"
    p.write_bytes(xml(f"<layers>\n{LAYERS}</layers>").replace('version="1.0"', 'version="1.0" encoding="latin-1"')
                  .encode())
    assert planner.find_split(file_reader(str(p)), p.stat().st_size) is None


def test_a_wrong_guess_is_caught_and_the_file_parsed_serially(tmp_path: Path) -> None:
    """A `<body><layers>` that is not a layer's body: the byte scan guesses layer 3's body, the
    parser knows better, and the child's work is thrown away."""
    p = tmp_path / "m.xml"
    p.write_text(xml(f'<layers>\n<layer id="3" name="x" type="Parameter"/>\n</layers>\n<extra><body><layers>\n'
                     f"{LAYERS}</layers></body></extra>"))
    model, used = load_split_at(p, b'<layer id="10"', "3")
    assert not used
    assert dump(model) == dump(loader.load(p))


def test_malformed_xml_in_the_childs_part_is_reported_as_serially(tmp_path: Path) -> None:
    p = tmp_path / "m.xml"
    p.write_text(xml(f"<layers>\n{LAYERS}</layers>").replace('<layer id="30" name="l30"', '<layer id="30" name=l30'))
    model, used = loader._load(str(p), None, False, split_at=p.read_bytes().find(b'<layer id="20"'))
    assert not used
    assert [(d.code, d.loc.line) for d in model.diagnostics] == [("IR001", 34)]
    assert dump(model) == dump(loader.load(p))


def test_diagnostics_from_the_childs_part_keep_their_places(tmp_path: Path) -> None:
    p = tmp_path / "m.xml"
    bad = LAYERS.replace('name="l32" type="Parameter" version="opset1"><data shape="1" element_type="f32"/><output>'
                         '<port id="0" precision="FP32"><dim>1</dim>',
                         'name="l32" type="Parameter" version="opset1"><data shape="1" element_type="f32"/><output>'
                         '<port id="0" precision="FP99"><dim>x</dim>')
    assert bad != LAYERS
    p.write_text(xml(f"<layers>\n{bad}</layers>"))
    model, used = loader._load(str(p), None, False, split_at=p.read_bytes().find(b'<layer id="20"'))
    assert used
    assert [(d.code, str(d.loc).split(":", 1)[1], d.layer) for d in model.diagnostics] == [
        ("IR005", "36:118", "32"), ("IR004", "36:135", "32")]
    assert dump(model) == dump(loader.load(p))


def test_without_fork_the_file_is_parsed_serially(monkeypatch: pytest.MonkeyPatch) -> None:
    p = Path(__file__).resolve().parents[2] / "examples" / "lstm_ti.xml"

    def no_fork() -> int:
        raise OSError("no")

    monkeypatch.setattr(os, "fork", no_fork)
    model, used = loader._load(str(p), None, False, split_at=offsets(p, 3)[1])
    assert not used
    assert dump(model) == dump(loader.load(p))


def test_check_on_two_cores_reports_what_one_core_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planner, "MIN_BYTES", 0)
    fixtures = sorted(p for p in MODELS if p.name == "fail.xml")[:12]
    assert fixtures
    for p in fixtures:
        one = api.check(p)
        two = api.check(p, two_cores=True)
        assert [(d.code, str(d.loc), d.message) for d in two] == [(d.code, str(d.loc), d.message) for d in one], p


def test_a_split_inside_a_body_whose_layer_names_its_id_late(tmp_path: Path) -> None:
    p = tmp_path / "m.xml"
    p.write_text(xml(f'<layers>\n<layer name="t" id="2" type="TensorIterator" version="opset1">\n<body>\n<layers>\n'
                     f"{LAYERS}</layers>\n<edges/>\n</body>\n</layer>\n</layers>\n<edges/>"))
    model, used = load_split_at(p, b'<layer id="20"', "2")
    assert used
    assert [la.path for la in model.graph.layers[0].body.layers][19:21] == ["2/body/19", "2/body/20"]  # type: ignore[union-attr]
    assert dump(model) == dump(loader.load(p))


def test_cli_default_and_one_process_report_the_same_on_a_large_file(tmp_path: Path) -> None:
    """The command line splits a file of 1 MiB+ (and checks 10,000+ layers on two cores): same report
    and exit code as `-j 1`, findings on both sides of the split included."""
    n = 12_000
    chain = "".join(f'<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input><port id="0" precision="FP32">'
                    '<dim>2</dim></port></input><output><port id="1" '
                    f'precision="{"FP99" if i in (5, n - 5) else "FP32"}"><dim>2</dim></port></output></layer>\n'
                    for i in range(1, n))
    param = ('<layer id="0" name="p" type="Parameter" version="opset1"><data shape="2" element_type="f32"/>'
             '<output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>\n')
    edges = "".join(f'<edge from-layer="{i}" from-port="{int(i > 0)}" to-layer="{i + 1}" to-port="0"/>\n'
                    for i in range(n - 1))
    p = tmp_path / "big.xml"
    p.write_text(xml(f"<layers>\n{param}{chain}</layers>\n<edges>\n{edges}"
                     '<edge from-layer="3" from-port="1" to-layer="77777" to-port="0"/>\n</edges>'))
    assert p.stat().st_size > planner.MIN_BYTES
    runs = [subprocess.run([sys.executable, "-m", "irlint", "check", "--format", "json", *extra, str(p)],
                           capture_output=True, text=True, timeout=300) for extra in ([], ["-j", "1"])]
    assert runs[0].returncode == runs[1].returncode == 1, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    codes = [d["code"] for d in json.loads(runs[0].stdout)]
    assert codes.count("IR005") == 2 and "G102" in codes


PROTOCOL = {n for n in vars(PartialParse) if not n.startswith("_")}


class OnlyTheProtocol:
    """A reader seen through `PartialParse` alone: anything else the two-core loader touched would raise."""

    def __init__(self, reader: Reader) -> None:
        self._reader = reader

    def __getattr__(self, name: str) -> object:
        if name not in PROTOCOL:
            raise AttributeError(f"{name} is not part of PartialParse")
        return getattr(self._reader, name)


def test_the_two_core_loader_uses_readers_only_through_the_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    assert {"feed", "open_layers_owner", "parse_tail", "adopt"} == PROTOCOL  # narrow: four methods
    real = twocore.load_into
    monkeypatch.setattr(twocore, "load_into", lambda reader, *a, **k: real(OnlyTheProtocol(reader), *a, **k))
    monkeypatch.setattr(child, "Reader", lambda src: OnlyTheProtocol(Reader(src)))  # the forked child's
    p = Path(__file__).resolve().parents[2] / "examples" / "lstm_ti.xml"
    reference = dump(loader.load(p))
    for at in offsets(p, 4):
        model, used = loader._load(str(p), None, False, split_at=at)
        assert used and dump(model) == reference, at


def test_only_the_loader_imports_the_two_core_loader() -> None:
    """Nothing outside the loader knows a fork happened: irlint.ir.twocore has one caller."""
    root = Path(__file__).resolve().parents[2]
    importers = set()
    for py in [*(root / "irlint").rglob("*.py"), *(root / "rules").rglob("*.py"), *(root / "viewer").rglob("*.py")]:
        for node in ast.walk(ast.parse(py.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [f"{node.module}.{a.name}" for a in node.names] if isinstance(node, ast.ImportFrom) else [])
            if any(n.startswith("irlint.ir.twocore") for n in names):
                importers.add(py.relative_to(root).as_posix())
    assert {i for i in importers if not i.startswith("irlint/ir/twocore/")} == {"irlint/ir/loader.py"}
