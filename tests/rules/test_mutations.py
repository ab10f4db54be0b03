"""Mutation suite: break one property of a valid IR, ask OpenVINO, ask irlint, compare.

For each mutant, OpenVINO's verdict comes from a subprocess (read_model, compile on CPU, one
inference, with a timeout). Then:
- every mutant OpenVINO rejects gets at least one irlint error at the mutated element's line;
- every spec violation OpenVINO accepts is flagged by irlint too (error or warning) at that line;
- legal variations (reordered port_map entries and layers, reverse slicing, i32 trip count,
  1-element condition) stay clean.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree

import irlint
from irlint.diagnostics import Severity
from tests.rules.valid_irs import ALL

ov = pytest.importorskip("openvino")

VERDICT = r"""
import sys, numpy as np, openvino as ov
try:
    core = ov.Core()
    m = core.read_model(sys.argv[1])
    c = core.compile_model(m, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    feed = []
    for p in m.inputs:
        shape = [d.get_length() if d.is_static else 2 for d in p.get_partial_shape()]
        feed.append(np.ones(shape, dtype=p.get_element_type().to_dtype()))
    c(feed)
    print("ACCEPT")
except Exception as e:
    print("REJECT", str(e).splitlines()[0][:200] if str(e) else type(e).__name__)
"""


@dataclass
class Mutant:
    name: str
    base: str
    mutate: Callable[[list[str], etree._Element], int]  # edits lines in place, returns the 1-based line
    spec_violation: bool = True  # False: a legal variation that must stay clean


def _set_attr(lines: list[str], el: etree._Element, attr: str, value: str) -> int:
    n = el.sourceline - 1
    new, count = re.subn(rf'{attr}="[^"]*"', f'{attr}="{value}"', lines[n], count=1)
    if not count:
        new = lines[n].replace(f"<{el.tag} ", f'<{el.tag} {attr}="{value}" ', 1)
    lines[n] = new
    return el.sourceline


def _ti(root: etree._Element) -> etree._Element:
    return next(la for la in root.iter("layer") if la.get("type") in ("TensorIterator", "Loop"))


def _entry(root: etree._Element, direction: str, sliced: bool | None = None) -> etree._Element:
    for e in _ti(root).find("port_map"):
        if e.tag == direction and e.get("purpose") is None and (sliced is None or ("axis" in e.attrib) == sliced):
            return e
    raise LookupError


def _body_layer(root: etree._Element, type_name: str) -> etree._Element:
    return next(la for la in _ti(root).find("body").find("layers") if la.get("type") == type_name)


def m_external_port(lines, root):
    return _set_attr(lines, _entry(root, "output"), "external_port_id", "17")


def m_internal_missing(lines, root):
    return _set_attr(lines, _entry(root, "input", sliced=True), "internal_layer_id", "99")


def m_internal_not_parameter(lines, root):
    const_id = _body_layer(root, "Const").get("id")
    return _set_attr(lines, _entry(root, "input", sliced=True), "internal_layer_id", const_id)


def m_output_not_result(lines, root):
    return _set_attr(lines, _entry(root, "output"), "internal_layer_id", _body_layer(root, "Const").get("id"))


def m_back_edge_to_result(lines, root):
    be = _ti(root).find("back_edges")[0]
    return _set_attr(lines, be, "to-layer", be.get("from-layer"))


def m_back_edge_from_parameter(lines, root):
    be = _ti(root).find("back_edges")[0]
    return _set_attr(lines, be, "from-layer", be.get("to-layer"))


def m_back_edge_duplicate(lines, root):
    be = _ti(root).find("back_edges")[0]
    n = be.sourceline - 1
    lines.insert(n + 1, lines[n])
    return be.sourceline + 1


def m_axis_out_of_range(lines, root):
    return _set_attr(lines, _entry(root, "input", sliced=True), "axis", "7")


def m_stride_zero(lines, root):
    return _set_attr(lines, _entry(root, "input", sliced=True), "stride", "0")


def m_start_outside(lines, root):
    return _set_attr(lines, _entry(root, "input", sliced=True), "start", "40")


def m_part_size_zero(lines, root):
    return _set_attr(lines, _entry(root, "input", sliced=True), "part_size", "0")


def m_drop_input_entry(lines, root):
    e = _entry(root, "input", sliced=False)
    lines[e.sourceline - 1] = ""
    # the unmapped port is what irlint reports
    port = next(p for p in _ti(root).find("input") if p.get("id") == e.get("external_port_id"))
    return port.sourceline


def m_body_param_dims(lines, root):
    e = _entry(root, "input", sliced=True)
    param = next(la for la in _ti(root).find("body").find("layers") if la.get("id") == e.get("internal_layer_id"))
    data = param.find("data")
    n = data.sourceline - 1
    lines[n] = re.sub(r'shape="([^"]*)"', lambda m: 'shape="' + m.group(1) + ',1"', lines[n], count=1)
    return param.find("output")[0].sourceline


def m_output_dims(lines, root):
    port = _ti(root).find("output")[-1]
    dim = port.find("dim")
    n = dim.sourceline - 1
    lines[n] = re.sub(r"<dim>(\d+)</dim>", lambda m: f"<dim>{int(m.group(1)) + 3}</dim>", lines[n], count=1)
    return port.sourceline


def m_edge_port(lines, root):
    edge = _ti(root).find("body").find("edges")[0]
    return _set_attr(lines, edge, "to-port", "9")


def m_body_duplicate_id(lines, root):
    layers = list(_ti(root).find("body").find("layers"))
    target = next(la for la in layers if la.get("type") == "Const")
    return _set_attr(lines, target, "id", layers[0].get("id"))


def m_drop_condition(lines, root):
    e = next(e for e in _ti(root).find("port_map") if e.get("purpose") == "execution_condition")
    lines[e.sourceline - 1] = ""
    return _ti(root).find("port_map").sourceline


def m_purpose_typo(lines, root):
    e = next(e for e in _ti(root).find("port_map") if e.get("purpose") == "execution_condition")
    return _set_attr(lines, e, "purpose", "exec_condition")


def m_output_stride_zero(lines, root):
    return _set_attr(lines, _entry(root, "output", sliced=True), "stride", "0")


def m_output_stride_sign(lines, root):
    return _set_attr(lines, _entry(root, "output", sliced=True), "stride", "-1")


def m_output_end_short(lines, root):
    return _set_attr(lines, _entry(root, "output", sliced=True), "end", "1")


def m_trip_count_f64(lines, root):
    """The Const feeding the trip count becomes f64 (same size as i64); reported where it is produced."""
    loop = _ti(root)
    edge = next(e for e in root.find("edges") if e.get("to-layer") == loop.get("id") and e.get("to-port") == "0")
    const = next(la for la in root.find("layers") if la.get("id") == edge.get("from-layer"))
    _set_attr(lines, const.find("data"), "element_type", "f64")
    return const.find("output")[0].sourceline


# ---- legal variations -------------------------------------------------------------------------


def m_reorder_port_map(lines, root):
    pm = _ti(root).find("port_map")
    entries = [lines[e.sourceline - 1] for e in pm]
    for e, text in zip(pm, reversed(entries)):
        lines[e.sourceline - 1] = text
    return pm.sourceline


def m_reorder_body_layers(lines, root):
    layers_el = _ti(root).find("body").find("layers")
    start = layers_el.sourceline  # line after <layers>
    end = layers_el.getnext().sourceline - 2  # line of </layers>
    indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
    blocks, current = [], []
    for i in range(start, end):
        current.append(lines[i])
        if lines[i] == indent + "</layer>":
            blocks.append(current)
            current = []
    if current or len(blocks) < 2:
        raise LookupError("could not split body layers")
    flat = [line for block in reversed(blocks) for line in block]
    lines[start:end] = flat
    return layers_el.sourceline


MUTANTS = [
    Mutant("external-port-missing", "ti_forward", m_external_port),
    Mutant("internal-layer-missing", "ti_forward", m_internal_missing),
    Mutant("internal-layer-not-parameter", "ti_forward", m_internal_not_parameter),
    Mutant("output-not-result", "ti_forward", m_output_not_result),
    Mutant("back-edge-to-result", "ti_forward", m_back_edge_to_result),
    Mutant("back-edge-from-parameter", "ti_forward", m_back_edge_from_parameter),
    Mutant("back-edge-duplicate", "ti_forward", m_back_edge_duplicate),
    Mutant("axis-out-of-range", "ti_forward", m_axis_out_of_range),
    Mutant("stride-zero", "ti_forward", m_stride_zero),
    Mutant("start-outside", "ti_forward", m_start_outside),
    Mutant("part-size-zero", "ti_forward", m_part_size_zero),
    Mutant("drop-merged-entry", "ti_forward", m_drop_input_entry),
    Mutant("body-parameter-dims", "ti_forward", m_body_param_dims),
    Mutant("output-dims", "ti_forward", m_output_dims),
    Mutant("body-edge-port", "ti_lstm", m_edge_port),
    Mutant("body-duplicate-id", "ti_lstm", m_body_duplicate_id),
    Mutant("lstm-back-edge-to-result", "ti_lstm", m_back_edge_to_result),
    Mutant("lstm-output-dims", "ti_lstm", m_output_dims),
    Mutant("output-stride-zero", "ti_forward", m_output_stride_zero),
    Mutant("output-stride-sign", "ti_forward", m_output_stride_sign),
    Mutant("output-end-short", "ti_forward", m_output_end_short),
    Mutant("loop-trip-count-f64", "loop_for", m_trip_count_f64),
    Mutant("loop-external-port-missing", "loop_for", m_external_port),
    Mutant("loop-drop-condition", "loop_for", m_drop_condition),
    Mutant("loop-purpose-typo", "loop_for", m_purpose_typo),
    Mutant("loop-back-edge-to-result", "loop_while", m_back_edge_to_result),
    Mutant("loop-back-edge-duplicate", "loop_while", m_back_edge_duplicate),
    Mutant("loop-output-not-result", "loop_while", m_output_not_result),
    Mutant("legal-reorder-port-map", "ti_forward", m_reorder_port_map, spec_violation=False),
    Mutant("legal-reorder-port-map-loop", "loop_while", m_reorder_port_map, spec_violation=False),
    Mutant("legal-reorder-body-layers", "ti_lstm", m_reorder_body_layers, spec_violation=False),
]
LEGAL_BASES = ["ti_reverse", "loop_for_i32_one_element", "loop_do_while"]


def _verdict(path: Path) -> str:
    try:
        out = subprocess.run([sys.executable, "-c", VERDICT, str(path)], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "REJECT timeout"
    line = (out.stdout.strip().splitlines() or ["REJECT crashed: " + out.stderr.strip()[-200:]])[-1]
    return line


@pytest.fixture(scope="module")
def mutants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int, str]]:
    d = tmp_path_factory.mktemp("mutants")
    bases = {}
    for name in {m.base for m in MUTANTS}:
        p = d / f"base_{name}.xml"
        ov.save_model(ALL[name](), str(p), compress_to_fp16=False)
        bases[name] = p
    made = {}
    for m in MUTANTS:
        src = bases[m.base]
        lines = src.read_text().split("\n")
        root = etree.parse(str(src)).getroot()
        line = m.mutate(lines, root)
        path = d / f"{m.name}.xml"
        path.write_text("\n".join(lines))
        path.with_suffix(".bin").write_bytes(src.with_suffix(".bin").read_bytes())
        made[m.name] = (path, line)
    with ThreadPoolExecutor(max_workers=2) as pool:
        verdicts = dict(zip(made, pool.map(lambda name: _verdict(made[name][0]), made)))
    (d / "verdicts.json").write_text(json.dumps(verdicts, indent=1))
    return {name: (path, line, verdicts[name]) for name, (path, line) in made.items()}


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_mutant(mutant: Mutant, mutants: dict[str, tuple[Path, int, str]]) -> None:
    path, line, verdict = mutants[mutant.name]
    diags = irlint.check(path)
    if not mutant.spec_violation:
        assert verdict == "ACCEPT", f"OpenVINO rejects a legal variation: {verdict}"
        assert [d for d in diags if d.severity is not Severity.INFO] == []
        return
    at_line = [d for d in diags if d.loc.line == line]
    if verdict.startswith("REJECT"):
        assert any(d.severity is Severity.ERROR for d in at_line), (
            f"OpenVINO: {verdict}; irlint at line {line}: {[(d.code, d.message) for d in at_line]}; "
            f"elsewhere: {[(d.code, d.loc.line) for d in diags]}")
    else:
        assert any(d.severity in (Severity.ERROR, Severity.WARNING) for d in at_line), (
            f"OpenVINO accepts this spec violation; irlint must flag line {line}: "
            f"{[(d.code, d.loc.line, d.message) for d in diags]}")


@pytest.mark.parametrize("name", LEGAL_BASES)
def test_legal_variation_bases_are_accepted_and_clean(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.xml"
    ov.save_model(ALL[name](), str(path), compress_to_fp16=False)
    assert _verdict(path) == "ACCEPT"
    assert [d for d in irlint.check(path) if d.severity is not Severity.INFO] == []
