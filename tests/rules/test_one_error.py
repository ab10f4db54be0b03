"""One defect, one error: single-defect mutants of every valid TensorIterator/Loop/If IR, counted.

Each valid IR of `tests.rules.valid_irs.ALL` that holds a TensorIterator, a Loop or an If is saved
once; each defect operator below is applied to each element it fits (each port_map entry, each back
edge, each sliced entry...) of each TensorIterator/Loop at any depth, each If operator to each If
(each branch's entries and Results, its condition), and the operators of the mutation suite
(`tests/rules/test_mutations.py`) to each TensorIterator/Loop base they fit. For every mutant
`irlint.check` runs in-process and its errors are counted. The test asserts that

- every mutant is caught (at least one error), except those listed in `one_error_uncaught.txt`:
  legal variations (a back edge moved to a Result of the same shape, a Loop's output range that
  OpenVINO ignores, an If `<input>` entry written twice — OpenVINO reads, compiles and runs it with
  the same results —, a condition port inside a body that declares [2,2] where its producer
  declares no dims: OpenVINO re-infers a boolean scalar and compiles it) and defects irlint flags
  with a warning only (OpenVINO runs them);
- an error is at the mutated element, or one of its related notes is (the root is reported, and
  a consequence that cannot be avoided names it);
- at least `ONE_ERROR_SHARE` of the caught mutants give exactly one error (docs/architecture.md,
  "Recovery: one defect, one error"); the per-family table is printed on failure.

No OpenVINO verdict is asked here (the mutation suite does that); OpenVINO only writes the bases.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree

import irlint
from irlint.diagnostics import Diagnostic, Severity
from tests.rules.test_mutations import MUTANTS, _set_attr
from tests.rules.valid_irs import ALL

ov = pytest.importorskip("openvino")

ONE_ERROR_SHARE = 0.95
# Mutants without an error before one-defect-one-error recovery existed (none may lose its error since),
# and the If mutants OpenVINO accepts (see above).
UNCAUGHT = frozenset((Path(__file__).parent / "one_error_uncaught.txt").read_text().split())

Edit = Callable[[list[str]], set[int]]  # edits the lines in place, returns the lines of the defect


@dataclass
class Mutant:
    ident: str
    family: str
    xml: str
    lines: set[int]


def _control_flow(root: etree._Element) -> list[etree._Element]:
    return [la for la in root.iter("layer") if la.get("type") in ("TensorIterator", "Loop")]


def _entries(ti: etree._Element, direction: str | None = None) -> list[etree._Element]:
    pm = ti.find("port_map")
    return [e for e in (pm if pm is not None else ()) if e.tag in ("input", "output")
            and (direction is None or e.tag == direction) and e.get("purpose") is None
            and e.get("external_port_id") not in (None, "-1")]


def _body(ti: etree._Element) -> list[etree._Element]:
    return list(ti.find("body").find("layers"))


def _body_layer(ti: etree._Element, layer_id: str | None) -> etree._Element | None:
    return next((la for la in _body(ti) if la.get("id") == layer_id), None)


def _port(ti: etree._Element, port_id: str | None) -> etree._Element | None:
    for side in ("input", "output"):
        for p in ti.find(side) if ti.find(side) is not None else ():
            if p.get("id") == port_id:
                return p
    return None


def _lines_of(el: etree._Element) -> set[int]:
    """Every line an element spans (its start tag to its last descendant)."""
    return {d.sourceline for d in el.iter() if isinstance(d.tag, str)}


def _reshape_declaration(param: etree._Element, change: Callable[[list[int]], list[int] | None]) -> Edit | None:
    """An edit that gives a Parameter other static dims, in `<data shape>` and its port alike."""
    data, port = param.find("data"), param.find("output")[0]
    dims = [d for d in port if d.tag == "dim"]
    try:
        old = [int(d.text) for d in dims]
    except (TypeError, ValueError):
        return None
    new = change(old) if old else None
    if new is None or len(new) != len(old):
        return None

    def edit(lines: list[str]) -> set[int]:
        n = data.sourceline - 1
        lines[n] = re.sub(r'shape="[^"]*"', f'shape="{",".join(map(str, new))}"', lines[n], count=1)
        for d, v in zip(dims, new):
            lines[d.sourceline - 1] = re.sub(r"<dim>[^<]*</dim>", f"<dim>{v}</dim>", lines[d.sourceline - 1])
        return _lines_of(param)

    return edit


# ---- defect operators: each yields (element label, edit) for every element it fits ---------------


def op_external_port_twice(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """An entry takes the external_port_id of another entry of its direction."""
    for direction in ("input", "output"):
        entries = _entries(ti, direction)
        for e in entries:
            other = next((o for o in entries if o is not e and o.get("external_port_id") != e.get("external_port_id")),
                         None)
            if other is not None:
                yield (f"{direction}{e.get('external_port_id')}",
                       lambda lines, e=e, o=other: {_set_attr(lines, e, "external_port_id", o.get("external_port_id")),
                                                    o.sourceline})


def op_external_port_missing(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    for e in _entries(ti):
        yield f"{e.tag}{e.get('external_port_id')}", lambda lines, e=e: {_set_attr(lines, e, "external_port_id", "17")}


def op_part_size_not_dividing(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """A sliced input's part_size (and |stride|) that does not divide the length of its axis."""
    for e in _entries(ti, "input"):
        port = _port(ti, e.get("external_port_id"))
        if e.get("axis") is None or port is None:
            continue
        dims = [d.text for d in port if d.tag == "dim"]
        axis = int(e.get("axis"))
        if not -len(dims) <= axis < len(dims) or not (dims[axis] or "").isdigit():
            continue
        n = int(dims[axis])
        part = next((p for p in range(2, n) if n % p), None)
        if part is None:
            continue
        sign = "-" if e.get("stride", "1").startswith("-") else ""

        def edit(lines: list[str], e: etree._Element = e, part: int = part, sign: str = sign) -> set[int]:
            _set_attr(lines, e, "part_size", str(part))
            return {_set_attr(lines, e, "stride", f"{sign}{part}")}

        yield f"input{e.get('external_port_id')}", edit


def op_back_edge_parameter_shape(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """The Parameter a back edge feeds declares a shape the Result does not have (last dim + 1)."""
    for be in ti.find("back_edges") if ti.find("back_edges") is not None else ():
        param = _body_layer(ti, be.get("to-layer"))
        if param is None or param.get("type") != "Parameter":
            continue
        edit = _reshape_declaration(param, lambda d: [*d[:-1], d[-1] + 1])
        if edit is not None:
            yield f"to{be.get('to-layer')}", lambda lines, edit=edit, be=be: edit(lines) | {be.sourceline}


def op_back_edge_other_result(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """A back edge starts at another Result of the body (whose shape differs)."""
    results = [la for la in _body(ti) if la.get("type") == "Result"]
    for be in ti.find("back_edges") if ti.find("back_edges") is not None else ():
        for r in results:
            if r.get("id") != be.get("from-layer"):
                yield (f"from{be.get('from-layer')}-to{r.get('id')}",
                       lambda lines, be=be, r=r: {_set_attr(lines, be, "from-layer", r.get("id"))})


def op_drop_input_entry(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """An input entry is deleted: its body Parameter has no entry, its outer port is unmapped."""
    for e in _entries(ti, "input"):
        port, param = _port(ti, e.get("external_port_id")), _body_layer(ti, e.get("internal_layer_id"))
        if port is None or param is None:
            continue

        def edit(lines: list[str], e: etree._Element = e, port: etree._Element = port,
                 param: etree._Element = param) -> set[int]:
            lines[e.sourceline - 1] = ""
            return {port.sourceline, param.sourceline}

        yield f"input{e.get('external_port_id')}", edit


def _retarget(ti: etree._Element, want: Callable[[etree._Element, etree._Element], bool]) -> Iterator[tuple[str, Edit]]:
    for e in _entries(ti):
        target = next((la for la in _body(ti) if want(e, la)), None)
        if target is not None:
            yield (f"{e.tag}{e.get('external_port_id')}-to{target.get('id')}",
                   lambda lines, e=e, t=target: {_set_attr(lines, e, "internal_layer_id", t.get("id"))})


def op_entry_to_result(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """An input entry names a body Result, an output entry a body Parameter."""
    yield from _retarget(ti, lambda e, la: la.get("type") == ("Result" if e.tag == "input" else "Parameter"))


def op_entry_to_other_op(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """An entry names a body layer that is neither a Parameter nor a Result."""
    yield from _retarget(ti, lambda e, la: la.get("type") not in ("Parameter", "Result"))


def op_sliced_parameter_dims(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
    """A sliced body Parameter declares dims other than the slice's: on the axis, or off it."""
    for e in _entries(ti, "input"):
        param = _body_layer(ti, e.get("internal_layer_id"))
        if e.get("axis") is None or param is None or param.get("type") != "Parameter":
            continue
        axis = int(e.get("axis"))
        for where, change in (("axis", lambda d, a=axis: _bump(d, a)),
                              ("other", lambda d, a=axis: _bump(d, next((i for i in range(len(d)) if i != a % len(d)),
                                                                     None)))):
            edit = _reshape_declaration(param, change)
            if edit is not None:
                yield f"input{e.get('external_port_id')}-{where}", edit


def _bump(dims: list[int], i: int | None) -> list[int] | None:
    if i is None or not -len(dims) <= i < len(dims):
        return None
    out = list(dims)
    out[i] += 1
    return out


def _sliced_attr(attr: str, value: str) -> Callable[[etree._Element], Iterator[tuple[str, Edit]]]:
    """Every sliced entry (input or output) gets `attr`=`value`."""

    def op(ti: etree._Element) -> Iterator[tuple[str, Edit]]:
        for e in _entries(ti):
            if e.get("axis") is not None:
                yield (f"{e.tag}{e.get('external_port_id')}",
                       lambda lines, e=e: {_set_attr(lines, e, attr, value)})

    return op


OPERATORS: dict[str, Callable[[etree._Element], Iterator[tuple[str, Edit]]]] = {
    "sliced-axis-out-of-range": _sliced_attr("axis", "7"),
    "sliced-stride-zero": _sliced_attr("stride", "0"),
    "sliced-start-outside": _sliced_attr("start", "40"),
    "external-port-twice": op_external_port_twice,
    "part-size-not-dividing": op_part_size_not_dividing,
    "back-edge-parameter-shape": op_back_edge_parameter_shape,
    "back-edge-other-result": op_back_edge_other_result,
    "drop-input-entry": op_drop_input_entry,
    "entry-to-result-or-parameter": op_entry_to_result,
    "entry-to-other-op": op_entry_to_other_op,
    "sliced-parameter-dims": op_sliced_parameter_dims,
    "external-port-missing": op_external_port_missing,
}


# ---- If defect operators: each yields (element label, edit) for every element of one If it fits --------


def _if_entries(iff: etree._Element, direction: str | None = None) -> Iterator[tuple[str, etree._Element]]:
    for branch in ("then", "else"):
        for e in iff.find(f"{branch}_port_map") if iff.find(f"{branch}_port_map") is not None else ():
            if e.tag in ("input", "output") and (direction is None or e.tag == direction):
                yield branch, e


def _branch_layers(iff: etree._Element, branch: str) -> list[etree._Element]:
    body = iff.find(f"{branch}_body")
    return list(body.find("layers")) if body is not None and body.find("layers") is not None else []


def _if_port(iff: etree._Element, side: str, port_id: str | None) -> etree._Element | None:
    return next((p for p in iff.find(side) if p.get("id") == port_id), None) if iff.find(side) is not None else None


def op_if_external_port_missing(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """A branch port_map entry names an external port the If does not have."""
    for branch, e in _if_entries(iff):
        yield (f"{branch}-{e.tag}{e.get('external_port_id')}",
               lambda lines, e=e: {_set_attr(lines, e, "external_port_id", "17")})


def op_if_internal_layer_missing(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """A branch port_map entry names a layer its branch does not have."""
    for branch, e in _if_entries(iff):
        yield (f"{branch}-{e.tag}{e.get('external_port_id')}",
               lambda lines, e=e: {_set_attr(lines, e, "internal_layer_id", "99")})


def op_if_internal_layer_wrong_kind(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """An input entry names a branch Result, an output entry a branch Parameter."""
    for branch, e in _if_entries(iff):
        want = "Result" if e.tag == "input" else "Parameter"
        target = next((la for la in _branch_layers(iff, branch) if la.get("type") == want), None)
        if target is not None:
            yield (f"{branch}-{e.tag}{e.get('external_port_id')}-to{target.get('id')}",
                   lambda lines, e=e, t=target: {_set_attr(lines, e, "internal_layer_id", t.get("id"))})


def op_if_output_entry_dropped(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """An output entry of one branch is deleted: the If's port has no value from that branch."""
    for branch, e in _if_entries(iff, "output"):
        port = _if_port(iff, "output", e.get("external_port_id"))
        result = next((la for la in _branch_layers(iff, branch) if la.get("id") == e.get("internal_layer_id")), None)
        if port is None:
            continue

        def edit(lines: list[str], e: etree._Element = e, port: etree._Element = port,
                 result: etree._Element | None = result) -> set[int]:
            lines[e.sourceline - 1] = ""
            return {port.sourceline, e.sourceline} | ({result.sourceline} if result is not None else set())

        yield f"{branch}-output{e.get('external_port_id')}", edit


def op_if_entry_duplicated(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """An entry of a branch port_map is written twice (lines after it move down by one)."""
    for branch, e in _if_entries(iff):
        def edit(lines: list[str], e: etree._Element = e) -> set[int]:
            n = e.sourceline - 1
            lines[n] = lines[n] + "\n" + lines[n]
            return {e.sourceline, e.sourceline + 1}

        yield f"{branch}-{e.tag}{e.get('external_port_id')}", edit


def _result_port(result: etree._Element) -> etree._Element | None:
    ports = result.find("input")
    return ports[0] if ports is not None and len(ports) else None


def op_if_result_dims(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """A branch Result declares another last dim than what reaches it."""
    for branch in ("then", "else"):
        for r in _branch_layers(iff, branch):
            port = _result_port(r) if r.get("type") == "Result" else None
            dims = [d for d in port if d.tag == "dim"] if port is not None else []
            if not dims or not (dims[-1].text or "").isdigit():
                continue

            def edit(lines: list[str], r: etree._Element = r, d: etree._Element = dims[-1]) -> set[int]:
                n = d.sourceline - 1
                lines[n] = re.sub(r"<dim>(\d+)</dim>", lambda m: f"<dim>{int(m.group(1)) + 1}</dim>", lines[n], count=1)
                return _lines_of(r)

            yield f"{branch}-result{r.get('id')}", edit


def op_if_result_type(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """A branch Result declares another element type than what reaches it."""
    for branch in ("then", "else"):
        for r in _branch_layers(iff, branch):
            port = _result_port(r) if r.get("type") == "Result" else None
            if port is None or port.get("precision") not in ("FP32", "BOOL"):
                continue
            other = "I32" if port.get("precision") == "FP32" else "FP32"
            yield (f"{branch}-result{r.get('id')}",
                   lambda lines, r=r, port=port, other=other: {_set_attr(lines, port, "precision", other)}
                   | _lines_of(r))


def _condition_port(iff: etree._Element) -> etree._Element | None:
    return _if_port(iff, "input", "0")


def op_if_condition_not_boolean(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """The If's condition port declares f32."""
    port = _condition_port(iff)
    if port is not None:
        yield "port0", lambda lines, port=port: {_set_attr(lines, port, "precision", "FP32")}


def op_if_condition_rank_2(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """The If's condition port declares [2,2]."""
    port = _condition_port(iff)
    if port is not None and not [d for d in port if d.tag == "dim"]:
        def edit(lines: list[str], port: etree._Element = port) -> set[int]:
            n = port.sourceline - 1
            lines[n] = re.sub(r"\s*/>", "><dim>2</dim><dim>2</dim></port>", lines[n], count=1)
            return {port.sourceline}

        yield "port0", edit


def op_if_condition_parameter(iff: etree._Element) -> Iterator[tuple[str, Edit]]:
    """The Parameter the condition comes from is an f32 scalar or a boolean [2,2] (declared alike at both ends
    of the edge): the model contradicts itself nowhere but at the If."""
    root = iff.getroottree().getroot()
    edge = next((e for e in root.find("edges") if e.get("to-layer") == iff.get("id") and e.get("to-port") == "0"), None)
    param = next((la for la in root.find("layers") if edge is not None and la.get("id") == edge.get("from-layer")),
                 None)
    port = _condition_port(iff)
    if param is None or param.get("type") != "Parameter" or port is None or param.find("data") is None:
        return
    out = param.find("output")[0]
    if [d for d in out if d.tag == "dim"] or [d for d in port if d.tag == "dim"]:
        return

    def float_edit(lines: list[str]) -> set[int]:
        _set_attr(lines, param.find("data"), "element_type", "f32")
        _set_attr(lines, out, "precision", "FP32")
        return {_set_attr(lines, port, "precision", "FP32")} | _lines_of(param)

    def rank_edit(lines: list[str]) -> set[int]:
        _set_attr(lines, param.find("data"), "shape", "2,2")
        for p in (out, port):
            n = p.sourceline - 1
            lines[n] = re.sub(r"\s*/>", "><dim>2</dim><dim>2</dim></port>", lines[n], count=1)
        return {port.sourceline} | _lines_of(param)

    yield f"param{param.get('id')}-f32", float_edit
    yield f"param{param.get('id')}-rank2", rank_edit


IF_OPERATORS: dict[str, Callable[[etree._Element], Iterator[tuple[str, Edit]]]] = {
    "if-external-port-missing": op_if_external_port_missing,
    "if-internal-layer-missing": op_if_internal_layer_missing,
    "if-internal-layer-wrong-kind": op_if_internal_layer_wrong_kind,
    "if-output-entry-dropped": op_if_output_entry_dropped,
    "if-entry-duplicated": op_if_entry_duplicated,
    "if-result-dims": op_if_result_dims,
    "if-result-type": op_if_result_type,
    "if-condition-not-boolean": op_if_condition_not_boolean,
    "if-condition-rank-2": op_if_condition_rank_2,
    "if-condition-parameter": op_if_condition_parameter,
}


def _has_control_flow(xml: str) -> bool:
    return 'type="TensorIterator"' in xml or 'type="Loop"' in xml or 'type="If"' in xml


def make_mutants(bases: dict[str, Path]) -> list[Mutant]:
    out: list[Mutant] = []
    for name, path in sorted(bases.items()):
        text = path.read_text()
        root = etree.parse(str(path)).getroot()
        for i, ti in enumerate(_control_flow(root)):
            for family, op in OPERATORS.items():
                for label, edit in op(ti):
                    lines = text.split("\n")
                    at = edit(lines)
                    out.append(Mutant(f"{name}/{i}/{family}/{label}", family, "\n".join(lines), at))
        for i, iff in enumerate(la for la in root.iter("layer") if la.get("type") == "If"):
            for family, op in IF_OPERATORS.items():
                for label, edit in op(iff):
                    lines = text.split("\n")
                    at = edit(lines)
                    out.append(Mutant(f"{name}/if{i}/{family}/{label}", family, "\n".join(lines), at))
        if not _control_flow(root):
            continue  # the mutation suite's operators are for TensorIterator/Loop
        for m in MUTANTS:  # the mutation suite's operators, on every base they fit
            if not m.spec_violation:
                continue
            lines = text.split("\n")
            try:
                at = m.mutate(lines, root)
            except (LookupError, StopIteration, AttributeError, TypeError, IndexError):
                continue
            out.append(Mutant(f"{name}/{m.name}", m.name, "\n".join(lines), {at}))
    return out


def measure(d: Path) -> list[tuple[Mutant, list[Diagnostic]]]:
    """Save the bases into `d`, make every mutant there and check it."""
    bases = {}
    for name, build in ALL.items():
        p = d / f"{name}.xml"
        ov.save_model(build(), str(p), compress_to_fp16=False)
        if _has_control_flow(p.read_text()):
            bases[name] = p
    out = []
    for k, m in enumerate(make_mutants(bases)):
        base = bases[m.ident.split("/")[0]]
        path = d / f"m{k}.xml"
        path.write_text(m.xml)
        path.with_suffix(".bin").symlink_to(base.with_suffix(".bin"))
        out.append((m, irlint.check(path)))
    return out


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Mutant, list[Diagnostic]]]:
    return measure(tmp_path_factory.mktemp("one_error"))


def errors(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity is Severity.ERROR]


def table(measured: list[tuple[Mutant, list[Diagnostic]]]) -> str:
    """Per family: mutants, caught, share of the caught with exactly one error, mean errors."""
    rows: dict[str, list[int]] = defaultdict(list)
    for m, diags in measured:
        rows[m.family].append(len(errors(diags)))
    lines = [f"{'family':34} {'mutants':>7} {'caught':>6} {'one':>6} {'mean':>5}"]
    caught_all = one_all = 0
    for family, counts in sorted(rows.items(), key=lambda kv: -sum(kv[1]) / max(1, len(kv[1]))):
        caught = [c for c in counts if c]
        one = sum(1 for c in caught if c == 1)
        caught_all += len(caught)
        one_all += one
        lines.append(f"{family:34} {len(counts):7} {len(caught):6} {one / max(1, len(caught)):6.0%} "
                     f"{sum(caught) / max(1, len(caught)):5.2f}")
    lines.append(f"{'all':34} {len(measured):7} {caught_all:6} {one_all / max(1, caught_all):6.0%}")
    return "\n".join(lines)


def test_every_mutant_is_caught(measured: list[tuple[Mutant, list[Diagnostic]]]) -> None:
    missed = []
    for m, diags in measured:
        if not errors(diags) and m.ident not in UNCAUGHT:
            missed.append(f"{m.ident}: {[(d.code, d.loc.line) for d in diags]}")
    assert not missed, "\n".join(missed)


def test_an_error_is_at_the_defect(measured: list[tuple[Mutant, list[Diagnostic]]]) -> None:
    astray = []
    for m, diags in measured:
        errs = errors(diags)
        if errs and not any(d.loc.line in m.lines or any(r.loc.line in m.lines for r in d.related) for d in errs):
            astray.append(f"{m.ident} (lines {sorted(m.lines)}): {[(d.code, d.loc.line) for d in errs]}")
    assert not astray, "\n".join(astray)


def test_one_defect_gives_one_error(measured: list[tuple[Mutant, list[Diagnostic]]]) -> None:
    caught = [(m, errors(diags)) for m, diags in measured if errors(diags)]
    one = sum(1 for _, errs in caught if len(errs) == 1)
    assert len(caught) >= 300, f"only {len(caught)} mutants were made"
    many = "\n".join(f"{m.ident}: {[(d.code, d.loc.line) for d in errs]}" for m, errs in caught if len(errs) > 1)
    assert one / len(caught) >= ONE_ERROR_SHARE, f"\n{table(measured)}\n\n{many}"


def test_every_if_defect_gives_one_error(measured: list[tuple[Mutant, list[Diagnostic]]]) -> None:
    """An If's port maps, branch Results and condition: every caught mutant is one error (IF8xx recovery)."""
    caught = [(m, errors(diags)) for m, diags in measured if m.family in IF_OPERATORS and errors(diags)]
    assert len(caught) >= 140, f"only {len(caught)} If mutants were caught"
    many = [f"{m.ident}: {[(d.code, d.loc.line) for d in errs]}" for m, errs in caught if len(errs) > 1]
    assert not many, "\n".join(many)
