"""If (opset8) in the model: both branches with their port maps, paths, source places, the walkers,
shape inference, and malformed If giving diagnostics instead of tracebacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from irlint.api import check
from irlint.ir.loader import load
from irlint.layerpath import find_layer, owner_of
from irlint.shapes import infer_model
from irlint.shapes.result import port_key
from irlint.types import DYNAMIC, Dim
from tests import ifmodels


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("if")
    out = {name: ifmodels.save(getattr(ifmodels, name)(), d, name)
           for name in ("simple_if", "dynamic_if", "if_in_loop", "loop_in_if")}
    out["const_true"] = ifmodels.save(ifmodels.simple_if(True), d, "const_true")
    out["const_false"] = ifmodels.save(ifmodels.simple_if(False), d, "const_false")
    return out


def _line_of(path: Path, needle: str, after: str = "") -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, t in enumerate(lines) if after in t) if after else 0
    return next(i for i in range(start, len(lines)) if needle in lines[i]) + 1


def test_both_branches_with_port_maps_and_paths(models: dict[str, Path]) -> None:
    path = models["simple_if"]
    m = load(path)
    assert m.diagnostics == ()
    (iff,) = [la for la in m.graph.layers if la.type == "If"]
    assert [b.name for b in iff.branches] == ["then", "else"]
    then, other = iff.branch("then"), iff.branch("else")
    assert then is not None and other is not None
    assert then.body.kind == "then_body" and other.body.kind == "else_body" and then.body.owner == iff.path
    # then maps both data inputs, else only x (the branch ignores y)
    assert sorted((e.direction, e.external_port_id) for e in then.port_map) == [("input", 1), ("input", 2),
                                                                                 ("output", 3)]
    assert sorted((e.direction, e.external_port_id) for e in other.port_map) == [("input", 1), ("output", 3)]
    for b in (then, other):
        for e in b.port_map:
            target = b.body.layer(e.internal_layer_id)
            assert target is not None and target.type == ("Parameter" if e.direction == "input" else "Result")
            assert target.path == f"{iff.path}/{b.body.kind}/{target.id}"
            assert find_layer(m, target.path) is target and owner_of(m, target.path) is iff
    assert iff.body is None and iff.port_map == ()
    assert iff.subgraphs() == (then.body, other.body)
    # every walker sees the branches
    assert [g.where for g in m.graphs()] == ["", f"{iff.path}/then_body", f"{iff.path}/else_body"]
    # source places of the port maps and their entries
    assert iff.branch_port_map_loc("then").line == _line_of(path, "<then_port_map>")
    assert iff.branch_port_map_loc("else").line == _line_of(path, "<else_port_map>")
    out = next(e for e in other.port_map if e.direction == "output")
    assert out.loc.line == _line_of(path, "<output external_port_id", "<else_port_map>")


def test_rules_run_inside_a_branch_with_its_place(models: dict[str, Path], tmp_path: Path) -> None:
    text = models["simple_if"].read_text()
    head, sep, rest = text.partition("<else_body>")
    tail, end, rest = rest.partition("</else_body>")
    (iff,) = [la for la in load(models["simple_if"]).graph.layers if la.type == "If"]
    (res,) = iff.branch("else").body.results()
    to = f'to-layer="{res.id}"'
    assert tail.count(to) == 1
    broken = tmp_path / "broken.xml"
    broken.write_text(head + sep + tail.replace(to, 'to-layer="9"', 1) + end + rest)
    found = [d for d in check(broken) if d.code == "G102"]
    assert len(found) == 1
    (iff,) = [la for la in load(broken).graph.layers if la.type == "If"]
    assert found[0].loc.line == _line_of(broken, 'to-layer="9"')
    assert found[0].layer == iff.path and "else_body" in found[0].message


def test_the_models_check_clean(models: dict[str, Path]) -> None:
    for path in models.values():
        assert [d for d in check(path) if d.severity.value in ("error", "warning")] == [], path


def _out(path: Path, layer_type: str, port_index: int = 0):
    m = load(path)
    layer = next(la for la in m.graph.layers if la.type == layer_type)
    return infer_model(m).outputs.get(port_key(layer, layer.outputs[port_index].id))


def test_shapes_constant_condition_takes_the_branch(models: dict[str, Path]) -> None:
    assert _out(models["const_true"], "If").shape == (Dim.of(2), Dim.of(3))
    assert _out(models["simple_if"], "If").shape == (Dim.of(2), Dim.of(3))


def test_shapes_merge_of_branches_with_different_shapes(models: dict[str, Path]) -> None:
    # OpenVINO declares [2..4,3] for this output (then [4,3], else [2,3])
    assert _out(models["dynamic_if"], "If").shape == (Dim(2, 4), Dim.of(3))


def test_shapes_through_nested_loops(models: dict[str, Path]) -> None:
    assert _out(models["if_in_loop"], "Loop", 1).shape == (Dim.of(4), Dim.of(3))
    assert _out(models["loop_in_if"], "If").shape == (Dim.of(2), Dim.of(2))


@pytest.mark.parametrize(("a", "b", "want"), [
    ((2, 3), (2, 4), (Dim.of(2), Dim(3, 4))),
    ((2, 3), (3,), None),
    ((2,), (), (DYNAMIC,)),
    ((2, 3), (2, None), (Dim.of(2), DYNAMIC)),
    ((2, 3), (5, 3), (Dim(2, 5), Dim.of(3))),
    ((), (1,), (Dim.of(1),)),
    ((1,), (), (Dim.of(1),)),
    ((), (3,), (DYNAMIC,)),
    ((), (None,), (DYNAMIC,)),
    ((1,), (1, 1), None),
])
def test_merge_follows_openvino(a, b, want) -> None:
    """The cases measured with openvino.opset8.if_op (2026.4) on a non-constant condition."""
    from irlint.ops import TensorInfo
    from irlint.shapes.merge import union as merge_branches

    def info(dims):
        return TensorInfo(None, tuple(DYNAMIC if d is None else Dim.of(d) for d in dims))

    assert merge_branches(info(a), info(b)).shape == want


MALFORMED = [
    ("no else_body", lambda t: _cut(t, "<else_body>", "</else_body>"), "has no <else_body>"),
    ("no then_port_map", lambda t: _cut(t, "<then_port_map>", "</then_port_map>"), "has no <then_port_map>"),
    ("branch on a Loop", lambda t: t.replace('type="If" version="opset8"', 'type="Loop" version="opset5"'),
     "only If layers have"),
]


def _cut(text: str, start: str, end: str) -> str:
    i, j = text.index(start), text.index(end) + len(end)
    return text[:i] + text[j:]


@pytest.mark.parametrize(("what", "edit", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_if_gives_diagnostics(models: dict[str, Path], tmp_path: Path, what, edit, message) -> None:
    path = tmp_path / "m.xml"
    path.write_text(edit(models["simple_if"].read_text()))
    (path.with_suffix(".bin")).write_bytes(models["simple_if"].with_suffix(".bin").read_bytes())
    assert any(message in d.message for d in load(path).diagnostics)
    diags = check(path)
    assert any(message in d.message for d in diags)
    assert not any(d.code == "IR900" for d in diags)
