"""The streaming loader: the model does not depend on where the 1 MiB chunks fall, every
element's location is exact, and the memory-saving sharing does not leak between elements."""

from __future__ import annotations

from pathlib import Path

import pytest

from irlint.ir import loader
from irlint.ir.index import GraphIndex
from irlint.ir.model import Model
from irlint.ir.weights import Weights

ROOT = Path(__file__).resolve().parents[2]
MODELS = sorted((ROOT / "examples").rglob("*.xml")) + sorted((ROOT / "tests" / "rules" / "fixtures").rglob("*.xml"))


def dump(m: Model) -> list[object]:
    """Everything the loader produces, with resolved locations."""
    out: list[object] = [m.name, m.version, str(m.loc)]
    out += [(d.code, d.message, str(d.loc), d.layer, d.port) for d in m.diagnostics]
    for g in m.graphs():
        out.append((g.owner, g.kind, str(g.loc), [(str(e.loc), e.from_layer, e.from_port, e.to_layer, e.to_port)
                                          for e in g.edges]))
        for la in g.layers:
            out.append((la.path, la.id, la.name, la.type, la.version, dict(la.data), str(la.loc), str(la.data_loc),
                        str(la.port_map_loc), str(la.back_edges_loc)))
            out += [(p.id, p.precision, p.shape, p.names, str(la.port_loc(p))) for p in (*la.inputs, *la.outputs)]
            out += [(e.direction, dict(e.attrs), str(e.loc)) for e in la.port_map]
            out += [(b.from_layer, b.to_layer, str(b.loc)) for b in la.back_edges]
            for br in la.branches:  # an If's
                out.append((br.name, br.body.where, str(la.branch_port_map_loc(br.name))))
                out += [(e.direction, dict(e.attrs), str(e.loc)) for e in br.port_map]
    return out


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_chunk_boundaries_do_not_matter(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(MODELS) > 20
    reference = {p: dump(loader.load(p)) for p in MODELS}
    monkeypatch.setattr(loader, "CHUNK", chunk)
    for p in MODELS:
        assert dump(loader.load(p)) == reference[p], p
        w = Weights.open(str(p.with_suffix(".bin")))
        assert dump(loader.parse_bytes(p.read_bytes(), str(p), w)) == reference[p], p


@pytest.mark.parametrize("name", ["lstm_ti.xml", "nested_loop_in_ti.xml", "loop_scan.xml"])
def test_every_location_points_at_its_element(name: str) -> None:
    path = ROOT / "examples" / name
    lines = path.read_text().splitlines()
    m = loader.load(path)

    def at(loc: object, text: str) -> None:
        line, col = loc.line, loc.column  # type: ignore[attr-defined]
        assert lines[line - 1][col - 1:].startswith(text), (loc, text)

    for g in m.graphs():
        for la in g.layers:
            at(la.loc, "<layer")
            if la.data_loc is not None:
                at(la.data_loc, "<data")
            for p in (*la.inputs, *la.outputs):
                at(la.port_loc(p), "<port")
            for e in la.port_map:
                at(e.loc, f"<{e.direction}")
            for b in la.back_edges:
                at(b.loc, "<edge")
        for e in g.edges:
            at(e.loc, "<edge")


def test_minified_xml_has_exact_columns(tmp_path: Path) -> None:
    """Everything on one line: columns come from byte offsets, not from searching the line."""
    src = (ROOT / "examples" / "lstm_ti.xml").read_text()
    flat = "".join(line.strip() for line in src.splitlines())
    p = tmp_path / "flat.xml"
    p.write_text(flat)
    (tmp_path / "flat.bin").write_bytes((ROOT / "examples" / "lstm_ti.bin").read_bytes())
    m = loader.load(p)
    assert not m.diagnostics
    cols = [la.loc.column for _g, la in m.layers()]
    assert len(set(cols)) == len(cols)  # the old per-line search gave every layer the first "<layer" column
    for _g, la in m.layers():
        assert la.loc.line == 1 and flat[la.loc.column - 1:].startswith(f'<layer id="{la.id}"')


def test_bad_dims_and_attributes_are_located_across_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        '<?xml version="1.0"?>\n<net name="n" version="11">\n<layers>\n'
        '<layer id="0" name="p" type="Parameter" version="opset1">\n'
        '<data shape="2" element_type="f32"/>\n'
        '<output><port id="0" precision="FP32"><dim>2</dim>\n<dim>x</dim></port></output>\n'
        '</layer>\n<layer id="1" name="r" type="Result" version="opset1">\n'
        '<input><port id="zero"><dim>2</dim></port></input>\n</layer>\n</layers>\n<edges/>\n</net>\n'
    )
    p = tmp_path / "m.xml"
    p.write_text(text)
    monkeypatch.setattr(loader, "CHUNK", 5)
    got = {(d.code, d.loc.line, d.loc.column) for d in loader.load(p).diagnostics}
    assert ("IR004", 7, 1) in got  # the <dim>x</dim>
    assert ("IR004", 10, 14) in got  # id="zero", located at the attribute


def test_shared_shapes_and_data_are_equal_values(small_ti: Path) -> None:
    """Equal <data> and dims are shared objects; the sharing is invisible (read-only mappings)."""
    m = loader.load(small_ti)
    datas = [la.data for _g, la in m.layers() if la.type == "Result"]
    assert all(d is datas[0] for d in datas)
    with pytest.raises(TypeError):
        datas[0]["x"] = "y"  # type: ignore[index]


def test_index_of_multiply_fed_ports(small_ti: Path) -> None:
    m = loader.load(small_ti)
    idx = GraphIndex.build(m.graph)
    assert list(idx.multiply_fed()) == []
    for e in m.graph.edges:
        assert idx.source(e.to_layer, e.to_port) is e and idx.is_fed(e.to_layer, e.to_port)
        assert e in idx.edges_out(e.from_layer, e.from_port)


def test_locations_of_a_file_gone_or_shortened_have_no_line(tmp_path: Path) -> None:
    """Locations are read back from the file when asked for: if it went away, line 0, never a traceback."""
    p = tmp_path / "m.xml"
    p.write_bytes((ROOT / "examples" / "lstm_ti.xml").read_bytes())
    m = loader.load(p)
    last = max((la for _g, la in m.layers()), key=lambda la: la.at)
    p.write_bytes(p.read_bytes()[:last.at - 10])
    assert last.loc.line == 0 and last.port_loc(last.inputs[0]).line == 0 and last.data_loc is None
    p.unlink()
    assert all(la.loc.line == 0 for _g, la in m.layers())
    assert all(la.data_loc is None for _g, la in m.layers())


def test_ports_shared_between_layers_are_placed_in_each_layer(tmp_path: Path) -> None:
    """Unnamed equal ports are one object across layers; `port_loc` places it in the layer asked about,
    and two equal ports of one layer (a defect) stay two objects placed apart."""
    text = (
        '<?xml version="1.0"?>\n<net name="n" version="11">\n<layers>\n'
        + "".join(f'<layer id="{i}" name="a{i}" type="Relu" version="opset1">\n'
                  '<input><port id="0" precision="FP32"><dim>2</dim></port></input>\n'
                  '<output><port id="0" precision="FP32"><dim>2</dim></port></output>\n</layer>\n'
                  for i in range(3))
        + "</layers>\n<edges/>\n</net>\n"
    )
    p = tmp_path / "m.xml"
    p.write_text(text)
    m = loader.load(p)
    a, b, c = m.graph.layers
    assert a.inputs[0] is b.inputs[0] is c.inputs[0]  # shared
    assert a.inputs[0] is not a.outputs[0]  # equal, but one layer's two ports are distinct objects
    for la, line in ((a, 5), (b, 9), (c, 13)):
        assert (la.port_loc(la.inputs[0]).line, la.port_loc(la.outputs[0]).line) == (line, line + 1)


def test_recorded_children_of_control_flow_layers_equal_a_re_parse() -> None:
    """TensorIterator/Loop layers have their children recorded while loading (their text can be
    megabytes); the record must say what re-parsing the layer says, fixtures with repeated and
    misplaced children included."""
    from irlint.ir.source import _read_layer

    checked = 0
    for p in MODELS:
        m = loader.load(p)
        for at, parts in m.src.known.items():
            assert parts == _read_layer(m.src.read, at), (p, at)
            checked += 1
    assert checked > 20
