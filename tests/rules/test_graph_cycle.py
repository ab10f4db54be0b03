"""G106 names the shortest cycle (found with networkx among the layers Kahn's sort could not place)."""

from __future__ import annotations

from pathlib import Path

import irlint


def _port(pid: int) -> str:
    return f'<port id="{pid}" precision="FP32"><dim>2</dim></port>'


def _layer(lid: int, typ: str, n_in: int, extra: str = "") -> str:
    ins = "".join(_port(i) for i in range(n_in))
    inputs = f"<input>{ins}</input>" if n_in else ""
    return (f'<layer id="{lid}" name="l{lid}" type="{typ}" version="opset1">{extra}{inputs}'
            f"<output>{_port(n_in)}</output></layer>\n")


def test_the_reported_cycle_is_the_shortest(tmp_path: Path) -> None:
    # Concat 1 reads the Parameter, Relu 4 and Relu 2: cycles 1->2->1 and 1->2->3->4->1.
    layers = (_layer(0, "Parameter", 0, '<data shape="2" element_type="f32"/>')
              + _layer(1, "Concat", 3, '<data axis="0"/>') + _layer(2, "Relu", 1) + _layer(3, "Relu", 1)
              + _layer(4, "Relu", 1))
    edges = [(0, 0, 1, 0), (4, 1, 1, 1), (2, 1, 1, 2), (1, 3, 2, 0), (2, 1, 3, 0), (3, 1, 4, 0)]
    xml = ('<?xml version="1.0"?>\n<net name="m" version="11">\n<layers>\n' + layers + "</layers>\n<edges>\n"
           + "".join(f'<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}"/>\n'
                     for a, b, c, d in edges)
           + "</edges>\n</net>\n")
    path = tmp_path / "cycle.xml"
    path.write_text(xml)
    found = [d for d in irlint.check(path) if d.code == "G106"]
    assert len(found) == 1
    assert "layers 1 -> 2 -> 1 " in found[0].message, found[0].message
    closing = '<edge from-layer="2" from-port="1" to-layer="1" to-port="2"/>'
    assert found[0].loc.line == xml.splitlines().index(closing) + 1
