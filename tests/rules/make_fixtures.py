"""Regenerate the rule fixtures: `python tests/rules/make_fixtures.py` (needs openvino).

Every rule gets tests/rules/fixtures/<CODE>/fail.xml, a small IR written by openvino and edited as
text to contain the defect, with `<!-- expect: CODE -->` on the line above every line that must be
reported, and pass.xml, a valid IR exercising the same construct (sometimes a legal variation,
such as reverse slicing or an i32 trip count). The fixtures are committed; the test harness
(test_fixtures.py) reads them and does not need this script.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(ROOT))


def base_ti():
    from tests.conftest import build_small_ti

    return build_small_ti()


def base_loop():
    sys.path.insert(0, str(ROOT / "examples"))
    from make_examples import loop_scan

    return loop_scan()[0]


def reverse_ti():
    """The small TI iterating backwards (start=-1, end=0, stride=-1) on input and output."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, 5, 4], np.float32, name="X")
    h = ops.parameter([1, 4], np.float32, name="H")
    xi = ops.parameter([1, 1, 4], np.float32)
    hi = ops.parameter([1, 4], np.float32)
    # the state first: the CPU plugin computes Reshape(xi) + hi in place over the slice (BE507)
    h2 = ops.tanh(ops.add(hi, ops.reshape(xi, ops.constant(np.array([1, 4], np.int64)), False)))
    ro = ops.result(h2)
    rs = ops.result(ops.unsqueeze(h2, ops.constant(np.array([1], np.int64))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro, rs], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), -1, -1, 1, 0, 1)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    out = ti.get_concatenated_slices(rs.output(0), -1, -1, 1, 0, 1)
    return ov.Model([ops.result(out, name="Y")], [x, h], "reverse_ti")


def i32_trip_loop():
    """A for-loop with an i32 trip count and a 1-element boolean condition (legal variations)."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([3], np.float32, name="x")
    acc = ops.parameter([3], np.float32)
    nxt = ops.add(acc, ops.constant(np.ones(3, np.float32)))
    r = ops.result(nxt)
    c = ops.result(ops.constant(np.array([True])))
    loop = ops.loop(ops.constant(np.int32(4)), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, c], [acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "i32_trip_loop")


def forever_loop():
    """Trip count -1 and a body condition that is the constant true: a Loop that never ends."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([3], np.float32, name="x")
    acc = ops.parameter([3], np.float32)
    r = ops.result(ops.add(acc, ops.constant(np.ones(3, np.float32))))
    c = ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(-1)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c], [acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "forever_loop")


def loop_in_ti():
    sys.path.insert(0, str(ROOT / "examples"))
    from make_examples import nested_loop_in_ti

    return nested_loop_in_ti()[0]


def base_if():
    from tests.ifmodels import simple_if

    return simple_if()


BASES = {"ti": base_ti, "loop": base_loop, "reverse_ti": reverse_ti, "i32_loop": i32_trip_loop,
         "loop_in_ti": loop_in_ti, "forever_loop": forever_loop, "if": base_if}


@dataclass
class Edit:
    """Replace the first `old` (after the first `after`, if given) by `new`; mark that line with `codes`."""

    old: str
    new: str
    codes: tuple[str, ...] = ()
    after: str | None = None


@dataclass
class Fixture:
    code: str
    base: str
    edits: list[Edit]
    pass_base: str | None = None
    # Collateral findings on other lines: (substring of the line, line offset, codes).
    also: list[tuple] = field(default_factory=list)  # (needle, offset, codes[, after needle])
    # Consequences folded into a finding as notes (docs/architecture.md, "Recovery"): (needle, offset, codes
    # of the findings that carry a note at that line), marked `<!-- expect-note: ... -->`.
    notes: list[tuple] = field(default_factory=list)
    bin_edit: int | None = None  # truncate the .bin to this many bytes


TI_BODY = '<layer id="0" name="Parameter_3"'

FIXTURES = [
    # ---- loader ----
    Fixture("IR001", "ti", [Edit('<edges>\n\t\t<edge from-layer="0"', '<edges>\n\t\t<edge from-layer="0"', ())],
            also=[]),  # replaced below by a truncation (see make_ir001)
    Fixture("IR002", "ti", [Edit('<?xml version="1.0"?>\n', '<?xml version="1.0"?>\n<!DOCTYPE net [<!ENTITY x "y">]>\n',
                                 ())], also=[("<!DOCTYPE", 0, ("IR002",))]),
    Fixture("IR003", "ti", [Edit('version="11">', 'version="7">', ("IR003",))]),
    Fixture("IR004", "ti", [Edit('<layer id="3" name="last"', '<layer id="three" name="last"', ("IR004",))],
            also=[('from-port="2" to-layer="3" to-port="0" />', 0, ("G102",))]),
    Fixture("IR005", "ti", [Edit('<port id="0" precision="FP32">', '<port id="0" precision="FP33">', ("IR005",))]),
    Fixture("IR006", "ti", [Edit('<layer id="3" name="last" type="Result"', '<layer id="3" name="last"', ("IR006",))]),
    # ---- graph ----
    # the edge that named id 4 is a consequence (G102): a note of G101
    Fixture("G101", "ti", [Edit('<layer id="4" name="all"', '<layer id="3" name="all"', ("G101",))]),
    Fixture("G102", "ti", [Edit('from-port="3" to-layer="4"', 'from-port="3" to-layer="42"', ("G102",))],
            also=[('<layer id="4" name="all"', 2, ("G104",))]),
    Fixture("G103", "ti", [Edit('from-port="3" to-layer="4" to-port="0"', 'from-port="3" to-layer="4" to-port="5"',
                                ("G103",))]),  # the port it leaves unconnected (G104) is a note
    Fixture("G104", "ti", [Edit('<edge from-layer="2" from-port="3" to-layer="4" to-port="0" />\n', '', ())],
            also=[('<layer id="4" name="all"', 2, ("G104",))]),
    Fixture("G105", "ti", [Edit('<edge from-layer="2" from-port="3" to-layer="4" to-port="0" />',
                                '<edge from-layer="2" from-port="3" to-layer="4" to-port="0" />\n\t\t'
                                '<edge from-layer="2" from-port="2" to-layer="4" to-port="0" />', ())],
            also=[('<edge from-layer="2" from-port="2" to-layer="4"', 0, ("G105",)),
                  ('<layer id="4" name="all"', 2, ("T202",))]),
    Fixture("G106", "ti", [Edit('<edge from-layer="0" from-port="0" to-layer="3" to-port="0" />',
                                '<edge from-layer="9" from-port="2" to-layer="3" to-port="0" />', ("G106",))],
            also=[('<layer id="0" name="Parameter_3"', 0, ("PM410",)),
                  ('<layer id="3" name="Reshape_7"', 3, ("T202",))]),
    Fixture("G107", "ti", [Edit('<port id="2" precision="FP32" names="last">', '<port id="1" precision="FP32" names="last">',
                                ("G107",))], notes=[('<output external_port_id="2"', 0, ("G107",)),
                                                            ('from-port="2" to-layer="3"', 0, ("G107",))]),
    Fixture("G120", "loop_in_ti", [], also=[]),  # built by make_g120
    # an op of OpenVINO's opset17 that irlint has no module for (a type of no opset is IR009)
    Fixture("G110", "ti", [Edit('type="Tanh" version="opset1"', 'type="ErfInv" version="opset17"', ())],
            also=[('type="ErfInv"', 0, ("G110",))]),
    # ---- declarations ----
    Fixture("T201", "ti", [Edit('<port id="0" precision="FP32">', '<port id="0" precision="FP16">', ("T201",),
                                after='<layer id="4" name="all"')]),
    Fixture("T202", "ti", [Edit('<dim>5</dim>', '<dim>6</dim>', (), after='<layer id="4" name="all"')],
            also=[('<layer id="4" name="all"', 2, ("T202",))]),
    Fixture("T203", "ti", [Edit('<data shape="1,5,4" element_type="f32" />', '<data shape="1,6,4" element_type="f32" />',
                                ())], also=[('<layer id="0" name="X"', 3, ("T203",))]),  # SL606 is its note
    Fixture("T204", "ti", [Edit('<data element_type="i64" shape="1" offset="64" size="8" />',
                                '<data element_type="i32" shape="1" offset="64" size="4" />', ())],
            also=[('<layer id="8" name="Constant_15"', 3, ("T204",))]),
    # what follows from the MatMul's failure is poisoned: nothing after it is reported
    Fixture("T210", "ti", [Edit('<data transpose_a="false" transpose_b="false" />',
                                '<data transpose_a="false" transpose_b="true" />', (), after='name="MatMul_10"')],
            also=[('<layer id="5" name="MatMul_10"', 0, ("T210",))]),
    Fixture("T211", "ti", [Edit('<dim>3</dim>', '<dim>7</dim>', (), after='names="Result_17"')],
            also=[('names="Result_17">', 0, ("T211",))]),  # the Result's T202 is its note
    # ---- weights ----
    Fixture("W301", "ti", [], also=[('<layer id="2" name="Constant_6"', 0, ("W301",))]),  # .bin removed
    Fixture("W302", "ti", [], bin_edit=40, also=[('<data element_type="f32" shape="4, 3"', 0, ("W302",)),
                                                  ('<data element_type="i64" shape="1" offset="64"', 0, ("W302",))]),
    Fixture("W303", "ti", [Edit('offset="16" size="48"', 'offset="16" size="40"', ("W303",))]),
    # ---- port_map ----
    # the higher id: OpenVINO gives output entries the outputs in the order of their ids, so 7 still gives port 3
    Fixture("PM401", "ti", [Edit('<output axis="1" external_port_id="3"', '<output axis="1" external_port_id="7"',
                                 ("PM401",))]),
    # port 3, left without an entry (PM403), is a note of PM401
    Fixture("PM402", "ti", [Edit('<output axis="1" external_port_id="3"', '<output axis="1" external_port_id="2"',
                                 ("PM402",))]),  # port 3 left unmapped and port 2's shapes are its notes
    Fixture("PM403", "ti", [Edit('<output external_port_id="2" internal_layer_id="10" />\n', '', ())],
            also=[('<port id="2" precision="FP32" names="last">', 0, ("PM403",))]),
    Fixture("PM404", "ti", [Edit('<output external_port_id="2" internal_layer_id="10" />',
                                 '<output external_port_id="2" internal_layer_id="40" />', ("PM404",))]),
    Fixture("PM405", "ti", [Edit('<output external_port_id="2" internal_layer_id="10" />',
                                 '<output external_port_id="2" internal_layer_id="7" />', ("PM405",))]),
    Fixture("PM406", "loop", [Edit('purpose="current_iteration"', 'purpose="current_itteration"', ("PM406",))]),
    # the entry, the port it mapped and the outer edge into that port removed: only the Parameter is left
    # unfed (with the port still there, the unmapped port is the root: PM403); BE504 is a note of PM407
    Fixture("PM407", "ti", [Edit('<input external_port_id="1" internal_layer_id="1" />\n', '', ()),
                            Edit('\t\t\t\t<port id="1" precision="FP32">\n\t\t\t\t\t<dim>1</dim>\n\t\t\t\t\t<dim>3</dim>\n'
                                 '\t\t\t\t</port>\n', '', (), after='<layer id="2" name="TensorIterator'),
                            Edit('\t\t<edge from-layer="1" from-port="0" to-layer="2" to-port="1" />\n', '', ())],
            also=[('<layer id="1" name="Parameter_4"', 0, ("PM407",))]),
    Fixture("PM408", "ti", [Edit('<input external_port_id="1" internal_layer_id="1" />',
                                 '<input external_port_id="1" internal_layer_id="0" />', ("PM408",))]),
    # the unfed Parameter 1 (PM407, BE504), both deliveries to Parameter 0 (SL605) and the Reshape that
    # fails on one (T210) are notes of PM408
    Fixture("PM409", "ti", [Edit('<output axis="1" external_port_id="3" internal_layer_id="11" start="0" end="-1" '
                                 'stride="1" part_size="1" />\n', '', ())],
            also=[('<layer id="11" name="Result_17"', 0, ("PM409",)),
                  ('<port id="3" precision="FP32" names="all">', 0, ("PM403",))]),
    Fixture("PM410", "ti", [Edit('<edge from-layer="0" from-port="0" to-layer="3" to-port="0" />',
                                 '<edge from-layer="1" from-port="0" to-layer="3" to-port="0" />', ())],
            also=[('<layer id="0" name="Parameter_3"', 0, ("PM410",)), ('<layer id="3" name="Reshape_7"', 0,
                                                                          ("T210",)),
                  ('<layer id="3" name="Reshape_7"', 3, ("T202",))]),
    # ---- back edges ----
    Fixture("BE501", "ti", [Edit('<edge from-layer="10" to-layer="1" />', '<edge from-layer="7" to-layer="1" />',
                                 ("BE501",))], also=[('<layer id="10" name="Result_13"', 0, ())]),
    Fixture("BE502", "ti", [Edit('<edge from-layer="10" to-layer="1" />', '<edge from-layer="10" to-layer="11" />',
                                 ("BE502",))]),
    Fixture("BE503", "ti", [Edit('<edge from-layer="10" to-layer="1" />',
                                 '<edge from-layer="10" to-layer="1" />\n\t\t\t\t<edge from-layer="11" to-layer="1" />',
                                 ())], also=[('<edge from-layer="11" to-layer="1" />', 0, ("BE503", "BE505"))]),
    Fixture("BE504", "ti", [Edit('<input external_port_id="1" internal_layer_id="1" />',
                                 '<input axis="1" external_port_id="1" internal_layer_id="1" />', ("SL604",))],
            also=[('<edge from-layer="10" to-layer="1" />', 0, ("BE504",))]),
    Fixture("BE505", "ti", [Edit('<edge from-layer="10" to-layer="1" />', '<edge from-layer="11" to-layer="1" />',
                                 ("BE505",))], also=[('<layer id="10" name="Result_13"', 0, ())]),
    Fixture("BE506", "ti", [Edit('<edge from-layer="1" from-port="0" to-layer="6" to-port="1" />',
                                 '<edge from-layer="0" from-port="0" to-layer="6" to-port="1" />', ())],
            also=[('<edge from-layer="10" to-layer="1" />', 0, ("BE506",)), ('<layer id="6" name="Add_11"', 0,
                                                                                ("T210",)),
                  ('<layer id="6" name="Add_11"', 7, ("T202",))]),
    # ---- slicing ----
    Fixture("SL601", "ti", [Edit('<input axis="1" external_port_id="0"', '<input axis="3" external_port_id="0"',
                                 ("SL601",))]),
    Fixture("SL602", "ti", [Edit('<input axis="1" external_port_id="0"', '<input axis="-2" external_port_id="0"',
                                 ("SL602",))]),
    Fixture("SL603", "ti", [Edit('<input axis="1" external_port_id="0" internal_layer_id="0" start="0" end="-1" '
                                 'stride="1" part_size="1" />',
                                 '<input axis="1" external_port_id="0" internal_layer_id="0" start="0" end="-1" '
                                 'stride="-1" part_size="1" />', ("SL603",))], pass_base="reverse_ti"),
    Fixture("SL604", "ti", [], also=[]),  # built by make_sl604
    Fixture("SL605", "ti", [Edit('<data shape="1,1,4" element_type="f32" />', '<data shape="1,2,4" element_type="f32" />',
                                 ())], also=[(TI_BODY, 3, ("SL605",))]),  # T203 (data vs port) is its note
    Fixture("SL606", "ti", [Edit('<dim>5</dim>', '<dim>4</dim>', (), after='<port id="3" precision="FP32" names="all">')],
            also=[('names="all">', 0, ("SL606",))]),  # the consumer's T202 is its note
    Fixture("SL607", "ti", [Edit('internal_layer_id="0" start="0" end="-1"', 'internal_layer_id="0" start="1" end="-1"',
                                 ("SL607",))], also=[('<port id="3" precision="FP32" names="all">', 0, ("SL606",)),
                                                            ]),
    # ---- Loop ----
    Fixture("LP701", "loop", [Edit('<data element_type="i64" shape="" offset="0" size="8" />',
                                   '<data element_type="f64" shape="" offset="0" size="8" />', ())],
            also=[('<data element_type="f64" shape="" offset="0"', 2, ("LP701",))],  # T204 is its note
            pass_base="i32_loop"),
    Fixture("LP702", "loop", [Edit('<data element_type="boolean" shape="" offset="8" size="1" />',
                                   '<data element_type="u8" shape="" offset="8" size="1" />', ())],
            also=[('<data element_type="u8" shape="" offset="8"', 2, ("LP702",))],  # T204 is its note
            pass_base="i32_loop"),
    Fixture("LP703", "loop", [Edit('<output external_port_id="-1" internal_layer_id="15" purpose="execution_condition" />\n',
                                   '', ())], also=[('<port_map>', 0, ("LP703",)), ('<layer id="15" name="cond"', 0,
                                                                                    ("PM409",))]),
    Fixture("LP704", "loop", [Edit('<output external_port_id="-1" internal_layer_id="15" purpose="execution_condition" />',
                                   '<output external_port_id="-1" internal_layer_id="14" purpose="execution_condition" />',
                                   ())], also=[('<layer id="15" name="cond"', 0, ("PM409",)),
                                               ('<layer id="14" name="acc_next"', 0, ("LP704",))]),
    Fixture("LP705", "loop", [Edit('<data shape="" element_type="i64" />', '<data shape="" element_type="f32" />',
                                   ("LP705",))],
            also=[('<layer id="0" name="i" type="Parameter"', 3, ("T203",)), ('type="Add"', 0, ("T210",))]),
    Fixture("LP709", "loop", [Edit('internal_layer_id="16" start="0" end="-1" stride="1"',
                                   'internal_layer_id="16" start="1" end="-1" stride="1"', ("LP709",))]),
    Fixture("LP707", "forever_loop", [], also=[('type="Loop"', 10, ("LP707",))], pass_base="i32_loop"),
    Fixture("LP708", "loop", [], also=[]),  # built by make_lp708
    Fixture("PM411", "ti", [], also=[]),  # built by make_pm411
    # ---- If (opset8) ----
    Fixture("IF801", "if", [Edit('<input external_port_id="2" internal_layer_id="1" />',
                                 '<input external_port_id="7" internal_layer_id="1" />', ("IF801",))]),
    Fixture("IF809", "if", [Edit('<input external_port_id="2" internal_layer_id="1" />',
                                 '<input external_port_id="1" internal_layer_id="1" />', ("IF809",))]),
    Fixture("IF808", "if", [Edit('<input external_port_id="2" internal_layer_id="1" />',
                                 '<input external_port_id="2" internal_layer_id="1" axis="-1" />', ("IF808",))]),
    Fixture("IF802", "if", [Edit('<output external_port_id="3" internal_layer_id="3" />',
                                 '<output external_port_id="3" internal_layer_id="2" />', ("IF802",),
                                 after="<else_port_map>")]),
    Fixture("IF803", "if", [Edit('<output external_port_id="3" internal_layer_id="3" />\n', '', (),
                                 after="<else_port_map>")],
            also=[('<port id="3" precision="FP32" names="out">', 0, ("IF803",))]),
    Fixture("IF804", "if", [Edit('<port id="3" precision="FP32" names="out">', '<port id="3" precision="I32" names="out">',
                                 ("IF804",)),  # the port's T211 is its note
                            Edit('<port id="0" precision="FP32">', '<port id="0" precision="I32">', (),
                                 after='name="out" type="Result"')]),
    Fixture("IF806", "if", [Edit('<input external_port_id="2" internal_layer_id="1" />\n', '', (), after="<then_port_map>")],
            also=[('<layer id="1" name="ty" type="Parameter"', 0, ("IF806",))]),
    Fixture("IF805", "if", [Edit('<data shape="" element_type="boolean" />', '<data shape="2" element_type="boolean" />',
                                 ()),
                            Edit('<port id="0" precision="BOOL" names="cond" />',
                                 '<port id="0" precision="BOOL" names="cond"><dim>2</dim></port>', ()),
                            Edit('<port id="0" precision="BOOL" />', '<port id="0" precision="BOOL"><dim>2</dim></port>',
                                 ("IF805",), after='type="If"')]),
]


def mark(text: str, fx: Fixture) -> str:
    """Apply the edits and insert `<!-- expect: ... -->` above every line that must be reported."""
    marks: dict[int, list[str]] = {}
    for ed in fx.edits:
        start = text.index(ed.after) if ed.after else 0
        pos = text.index(ed.old, start)
        text = text[:pos] + ed.new + text[pos + len(ed.old):]
        if ed.codes:
            marks.setdefault(text.count("\n", 0, pos), []).extend(ed.codes)
    lines = text.split("\n")
    for needle, offset, codes, *after in fx.also:
        if not codes:
            continue
        first = next(i for i, line in enumerate(lines) if after[0] in line) if after else 0
        n = next(i for i, line in enumerate(lines) if i >= first and needle in line) + offset
        marks.setdefault(n, []).extend(codes)
    notes: dict[int, list[str]] = {}
    for needle, offset, codes in fx.notes:
        notes.setdefault(next(i for i, line in enumerate(lines) if needle in line) + offset, []).extend(codes)
    for n in sorted(marks.keys() | notes.keys(), reverse=True):
        indent = lines[n][: len(lines[n]) - len(lines[n].lstrip())]
        for kind, codes in (("expect-note", notes.get(n)), ("expect", marks.get(n))):
            if codes:
                lines.insert(n, f"{indent}<!-- {kind}: {' '.join(codes)} -->")
    return "\n".join(lines)


def save(model, path: Path) -> None:
    import openvino as ov

    ov.save_model(model, str(path), compress_to_fp16=False)


def save_bases(bases: dict[str, Callable[[], object]], folder: Path) -> dict[str, Path]:
    """Each base model built and saved as `folder/<name>.xml` (+ .bin); name -> its path."""
    paths = {}
    for name, build in bases.items():
        paths[name] = folder / f"{name}.xml"
        save(build(), paths[name])
    return paths


def main(only: list[str] | None = None) -> None:
    """Every fixture, or (`only`: codes on the command line) just those, leaving the others as they are."""
    if only:
        for code in only:
            shutil.rmtree(OUT / code, ignore_errors=True)
    elif OUT.exists():
        shutil.rmtree(OUT)
    with tempfile.TemporaryDirectory() as tmp:
        bases = save_bases(BASES, Path(tmp))
        for fx in FIXTURES:
            if only and fx.code not in only:
                continue
            d = OUT / fx.code
            d.mkdir(parents=True)
            src = bases[fx.base]
            pass_src = bases[fx.pass_base or fx.base]
            shutil.copyfile(pass_src, d / "pass.xml")
            shutil.copyfile(pass_src.with_suffix(".bin"), d / "pass.bin")
            text = src.read_text()
            special = SPECIAL.get(fx.code)
            fail = special(text) if special else mark(text, fx)
            (d / "fail.xml").write_text(fail)
            blob = src.with_suffix(".bin").read_bytes()
            if fx.code != "W301":
                (d / "fail.bin").write_bytes(blob[: fx.bin_edit] if fx.bin_edit else blob)
            print(fx.code)
    if only:
        return
    from tests.rules.make_case_fixtures import main as make_cases
    from tests.rules.make_reader_fixtures import main as make_reader
    from tests.rules.make_state_fixtures import main as make_state

    make_cases()
    make_state()
    make_reader()


def make_ir001(text: str) -> str:
    cut = text.index("<edges>\n\t\t<edge")
    return text[:cut] + "<edges>\n<!-- expect: IR001 -->\n\t\t<edge from-layer=\"0\" from-port=0 />\n</edges>\n</net>\n"


def make_g120(text: str) -> str:
    """Turn the inner Loop of the nested example into a TensorIterator."""
    fx = Fixture("G120", "loop_in_ti", [Edit('type="Loop" version="opset5"', 'type="TensorIterator" version="opset1"',
                                             ("G120",))],
                 also=[('purpose="execution_condition"', 0, ("PM406",)),
                       ('<port id="0" precision="I64" />', 0, ("PM403",), 'purpose="execution_condition"'),
                       ('<port id="1" precision="BOOL" />', 0, ("PM403",), 'purpose="execution_condition"')])
    return mark(text, fx)


def make_sl604(text: str) -> str:
    """A second sliced input (H sliced on axis 1: 3 iterations against X's 5)."""
    fx = Fixture("SL604", "ti", [Edit('<input external_port_id="1" internal_layer_id="1" />',
                                      '<input axis="1" external_port_id="1" internal_layer_id="1" />', ("SL604",))],
                 also=[('<edge from-layer="10" to-layer="1" />', 0, ("BE504",))])
    return mark(text, fx)


def make_lp708(text: str) -> str:
    """Slice the invariant input x (4 elements) although the trip count is 10."""
    fx = Fixture("LP708", "loop", [Edit('<input external_port_id="3" internal_layer_id="2" />',
                                        '<input axis="0" external_port_id="3" internal_layer_id="2" />', ("LP708",))],
                 also=[('<layer id="2" name="x_body"', 3, ("SL605",))])  # the Multiply's T211 is a note of SL605
    return mark(text, fx)


def make_pm411(text: str) -> str:
    """A Sigmoid in the TI body fed by Tanh_12 whose output no edge reads."""
    tanh = text.index('<layer id="7" name="Tanh_12"')
    indent = text[text.rindex("\n", 0, tanh) + 1:tanh]
    block = text[tanh:text.index("</layer>", tanh) + len("</layer>")]
    dead = (block.replace('id="7" name="Tanh_12" type="Tanh"', 'id="12" name="Sigmoid_dead" type="Sigmoid"')
            .replace(' names="Result_13"', ""))
    text = text[:tanh] + f"<!-- expect: PM411 -->\n{indent}{dead}\n{indent}" + text[tanh:]
    edge = '<edge from-layer="7" from-port="1" to-layer="10" to-port="0" />'
    at = text.index(edge)
    indent = text[text.rindex("\n", 0, at) + 1:at]
    return text[:at] + f'<edge from-layer="7" from-port="1" to-layer="12" to-port="0" />\n{indent}' + text[at:]


SPECIAL = {"IR001": make_ir001, "G120": make_g120, "SL604": make_sl604, "LP708": make_lp708, "PM411": make_pm411}

if __name__ == "__main__":
    main(sys.argv[1:])
