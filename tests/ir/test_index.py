"""GraphIndex answers what a scan of the edge list answers, on every shipped model and fixture
(fixtures include ports fed twice, edges to missing layers and ports, and ids that are not numbers)."""

from __future__ import annotations

from test_streaming import MODELS

from irlint.ir import loader
from irlint.ir.index import GraphIndex


def test_index_agrees_with_a_scan_of_the_edges() -> None:
    seen_multi = 0
    for p in MODELS:
        for g in loader.load(p).graphs():
            idx = GraphIndex.build(g)
            ends = {(e.to_layer, e.to_port) for e in g.edges} | {(e.from_layer, e.from_port) for e in g.edges}
            ends |= {(la.id, q.id) for la in g.layers for q in (*la.inputs, *la.outputs)}
            for lid, pid in ends:
                into = [e for e in g.edges if (e.to_layer, e.to_port) == (lid, pid)]
                out = [e for e in g.edges if (e.from_layer, e.from_port) == (lid, pid)]
                assert list(idx.edges_into(lid, pid)) == into, (p, lid, pid)
                assert list(idx.edges_out(lid, pid)) == out, (p, lid, pid)
                assert idx.source(lid, pid) is (into[0] if into else None)
                assert idx.is_fed(lid, pid) == bool(into)
            multi = sorted([(lid, pid, [id(e) for e in es]) for lid, pid, es in idx.multiply_fed()], key=repr)
            fed = {(e.to_layer, e.to_port) for e in g.edges}
            want = sorted([(lid, pid, [id(e) for e in g.edges if (e.to_layer, e.to_port) == (lid, pid)])
                           for lid, pid in fed if sum((e.to_layer, e.to_port) == (lid, pid) for e in g.edges) > 1],
                          key=repr)
            assert multi == want, p
            seen_multi += len(multi)
    assert seen_multi > 0  # some fixture feeds a port twice
