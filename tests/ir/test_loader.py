"""The loader: typed model with locations, problems as diagnostics, hostile XML refused safely."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.ir import load
from irlint.types import Dim

SECRET = "irlint-secret-4c7a91"


def codes_lines(diags) -> set[tuple[str, int]]:
    return {(d.code, d.loc.line) for d in diags}


def test_typed_model_of_a_real_ir(small_ti: Path) -> None:
    m = load(small_ti)
    assert m.version == 11 and not m.diagnostics
    ti = next(la for la in m.graph.layers if la.type == "TensorIterator")
    assert ti.body is not None and ti.body.owner == str(ti.id)
    sliced = [e for e in ti.port_map if e.sliced]
    assert sliced[0].axis == 1 and sliced[0].start == 0 and sliced[0].end == -1 and sliced[0].part_size == 1
    assert len(ti.back_edges) == 1
    lines = small_ti.read_text().splitlines()
    assert "<layer" in lines[ti.loc.line - 1] and lines[ti.loc.line - 1][ti.loc.column - 1:].startswith("<layer")
    be = ti.back_edges[0]
    assert lines[be.loc.line - 1][be.loc.column - 1:].startswith("<edge")
    body_param = ti.body.layer(sliced[0].internal_layer_id)
    assert body_param.path == f"{ti.id}/body/{body_param.id}"
    assert body_param.outputs[0].shape == (Dim.of(1), Dim.of(1), Dim.of(4))


def test_weights_are_read_lazily(small_ti: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from irlint.ir import weights

    reads: list[int] = []
    real = weights._read_at
    monkeypatch.setattr(weights, "_read_at", lambda fd, into, at: reads.append(len(into)) or real(fd, into, at))
    m = load(small_ti)
    assert m.weights.usable and reads == []  # nothing read while loading
    const = next(la for _g, la in m.layers() if la.type == "Const" and la.data["element_type"] == "f32")
    arr = m.weights.array(int(const.data["offset"]), int(const.data["size"]), const.outputs[0].precision,
                          (4, 3))
    assert arr.dtype == np.float32 and not arr.flags.writeable
    assert reads == [int(const.data["size"])]  # exactly the Const's bytes


def test_weights_override_and_missing_bin(small_ti: Path, tmp_path: Path) -> None:
    xml = tmp_path / "model.xml"
    xml.write_bytes(small_ti.read_bytes())
    diags = irlint.check(xml)
    assert any(d.code == "W301" for d in diags)
    assert not any(d.code == "W301" for d in irlint.check(xml, weights=str(small_ti.with_suffix(".bin"))))


def test_short_bin_is_reported_per_const(small_ti: Path, tmp_path: Path) -> None:
    xml = tmp_path / "model.xml"
    xml.write_bytes(small_ti.read_bytes())
    (tmp_path / "model.bin").write_bytes(small_ti.with_suffix(".bin").read_bytes()[:20])
    w302 = [d for d in irlint.check(xml) if d.code == "W302"]
    assert w302 and all("bytes" in d.message for d in w302)


def test_bad_values_are_diagnostics_and_parsing_continues(tmp_path: Path) -> None:
    p = tmp_path / "bad.xml"
    p.write_text(
        '<?xml version="1.0"?>\n'
        '<net name="n" version="11">\n'
        "  <layers>\n"
        '    <layer id="zero" name="p" type="Parameter" version="opset1">\n'
        '      <data shape="2" element_type="f32"/>\n'
        '      <output><port id="0" precision="FP33"><dim>2</dim></port></output>\n'
        "    </layer>\n"
        '    <layer id="1" name="r" type="Result" version="opset1">\n'
        '      <input><port id="0"><dim>x</dim></port></input>\n'
        "    </layer>\n"
        "  </layers>\n"
        "  <edges/>\n"
        "</net>\n"
    )
    m = load(p)
    got = codes_lines(m.diagnostics)
    assert ("IR004", 4) in got and ("IR005", 6) in got and ("IR004", 9) in got
    assert len(m.graph.layers) == 2
    d = next(d for d in m.diagnostics if d.code == "IR004" and d.loc.line == 4)
    assert d.loc.column == p.read_text().splitlines()[3].index("id=") + 1


def test_a_port_with_a_refused_dim_and_a_partly_read_one(tmp_path: Path) -> None:
    """<dim>2abc</dim> (read as 2, IR008) beside <dim>zz</dim> (refused, IR004): both reported, no crash."""
    p = tmp_path / "m.xml"
    p.write_text('<?xml version="1.0"?>\n<net name="t" version="11"><layers>\n'
                 '<layer id="0" name="x" type="Parameter" version="opset1"><data shape="2,3" element_type="f32"/>\n'
                 '<output><port id="0" precision="FP32"><dim>2abc</dim><dim>zz</dim></port></output></layer>\n'
                 '</layers><edges/></net>\n')
    got = {d.code: d.message for d in load(p).diagnostics}
    assert "reads <dim>2abc</dim> as 2" in got["IR008"] and "<dim>zz</dim>" in got["IR004"]


def test_malformed_xml_has_parser_position(tmp_path: Path) -> None:
    p = tmp_path / "m.xml"
    p.write_text('<?xml version="1.0"?>\n<net version="11">\n  <layers>\n    <layer id="0" type="Relu"\n</net>\n')
    (d,) = load(p).diagnostics
    assert d.code == "IR001" and d.loc.line in (4, 5)


def test_billion_laughs_is_not_expanded(tmp_path: Path) -> None:
    ents = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{i} "{("&a" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    p = tmp_path / "bomb.xml"
    p.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE net [{ents}]>\n<net name="&a9;" version="11"><layers/></net>\n')
    t0 = time.perf_counter()
    diags = irlint.check(p)
    assert time.perf_counter() - t0 < 10
    assert any(d.code == "IR002" for d in diags) or any(d.code == "IR001" for d in diags)
    assert all(len(d.message) < 2000 for d in diags)


def test_external_entity_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    p = tmp_path / "xxe.xml"
    p.write_text(
        '<?xml version="1.0"?>\n'
        f'<!DOCTYPE net [<!ENTITY x SYSTEM "file://{secret}">]>\n'
        '<net name="&x;" version="11"><layers><layer id="0" name="&x;" type="&x;" version="opset1"/></layers>'
        "<edges/></net>\n"
    )
    m = load(p)
    diags = irlint.check(p)
    assert any(d.code == "IR002" for d in diags)
    assert SECRET not in m.name and all(SECRET not in la.name + la.type for _g, la in m.layers())
    assert all(SECRET not in d.message for d in diags)


def test_unsupported_version(tmp_path: Path) -> None:
    p = tmp_path / "v7.xml"
    p.write_text('<?xml version="1.0"?>\n<net name="n" version="7">\n<layers/>\n<edges/>\n</net>\n')
    assert ("IR003", 2) in codes_lines(load(p).diagnostics)
