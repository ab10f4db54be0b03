"""A layer inside a body fed by its own output: every rule ends and the cycle is reported (G106).

Rules that walk chains of views or eltwise ops inside bodies (T219, BE507, PM414) follow one input
after another; a mutated file whose edge closes such a chain on itself once made `irlint check`
loop forever. Each mutant here is the rule fixtures' body layer of a walked type fed by itself,
checked in a child process with a deadline, so a loop fails the test instead of hanging the suite.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lxml import etree

FIXTURES = Path(__file__).resolve().parents[1] / "rules" / "fixtures"
SOURCES = ["T219/fail-reshapes.xml", "T219/fail-chain-loop.xml", "BE507/fail-tail.xml", "BE507/fail-u8-tail.xml",
           "PM414/fail.xml", "PM414/fail-view.xml", "PM414/fail-reader-before.xml", "PM414/fail-slice-view-relu.xml"]
WALKED = {"Reshape", "Squeeze", "Unsqueeze", "ReLU", "Sigmoid", "Tanh", "Abs", "Clamp", "Convert", "Add", "Multiply"}

CHILD = """
import sys
import irlint
for path in sys.argv[1:]:
    codes = sorted({d.code for d in irlint.check(path)})
    print(path, " ".join(codes), flush=True)
"""


def self_fed_mutants(source: Path, out: Path, port_kind: str) -> list[Path]:
    """One file per body layer of a walked type: the edge into its input 0 comes from the layer itself, from its
    output port or (as a mutated file once had it) from that input port."""
    made: list[Path] = []
    tree = etree.parse(str(source))
    bodies = tree.xpath("//layer[@type='Loop' or @type='TensorIterator']/body | //layer[@type='If']/then_body"
                        " | //layer[@type='If']/else_body")
    for b, body in enumerate(bodies):
        for layer in body.xpath("./layers/layer"):
            if layer.get("type") not in WALKED:
                continue
            ins, outs = layer.xpath("./input/port/@id"), layer.xpath("./output/port/@id")
            lid = layer.get("id")
            edge = body.xpath(f"./edges/edge[@to-layer='{lid}'][@to-port='{ins[0]}']") if ins and outs else []
            if not edge:
                continue
            copy = etree.fromstring(etree.tostring(tree.getroot()))
            target = copy.xpath(f"(//body | //then_body | //else_body)[{b + 1}]/edges/edge"
                                f"[@to-layer='{lid}'][@to-port='{ins[0]}']")[0]
            target.set("from-layer", lid)
            target.set("from-port", ins[0] if port_kind == "input" else outs[0])
            path = out / f"{source.parent.name}-{source.stem}-{b}-{lid}-{port_kind}.xml"
            path.write_bytes(etree.tostring(copy))
            path.with_suffix(".bin").write_bytes(source.with_suffix(".bin").read_bytes())
            made.append(path)
    return made


def test_a_body_layer_fed_by_itself_ends_every_rule(tmp_path: Path) -> None:
    mutants = [m for s in SOURCES for kind in ("output", "input")
               for m in self_fed_mutants(FIXTURES / s, tmp_path, kind)]
    assert len(mutants) >= 20
    done = subprocess.run([sys.executable, "-c", CHILD, *map(str, mutants)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(lines) == len(mutants)
    for line in lines:
        assert "G106" in line.split(" ", 1)[1], line
