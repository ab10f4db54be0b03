"""Regenerate the fixtures of what OpenVINO's IR reader refuses: `python tests/rules/make_reader_fixtures.py`.

Like make_fixtures.py (which calls this at its end): small models written by openvino, edited as
text to hold one defect each, with `<!-- expect: CODE -->` above each reported line. The fixtures
are listed in READER_FIXTURES below; tests/ir/test_reader_verdicts.py measures what openvino does
with each of them (the verdicts quoted in docs/rules-openvino.md).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(ROOT))

from tests.rules.make_fixtures import Edit, Fixture, base_loop, base_ti, mark, save_bases  # noqa: E402


def sub():
    """z = (x + 10) - y: two Parameters, a Const, two binary ops whose operand order matters, a Result."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2, 3], np.float32, name="x")
    y = ops.parameter([2, 3], np.float32, name="y")
    c = ops.constant(np.full((2, 3), 10, np.float32))
    return ov.Model([ops.result(ops.subtract(ops.add(x, c), y), name="z")], [x, y], "sub")


def rnn_cell():
    """An RNNCell, one of the ops OpenVINO still reads under version="experimental"."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, 3], np.float32, name="x")
    h = ops.parameter([1, 2], np.float32, name="h")
    w = ops.constant(np.full((2, 3), 0.5, np.float32))
    r = ops.constant(np.full((2, 2), 0.25, np.float32))
    b = ops.constant(np.zeros(2, np.float32))
    return ov.Model([ops.result(ops.rnn_cell(x, h, w, r, b, 2, ["tanh"], [], []), name="y")], [x, h], "rnn_cell")


BASES = {"sub": sub, "loop": base_loop, "ti": base_ti, "rnn": rnn_cell}

X_DATA = '<layer id="0" name="x" type="Parameter" version="opset1">\n\t\t\t<data shape="2,3" element_type="f32" />'
X_LAYER = '<layer id="0" name="x" type="Parameter" version="opset1">'
CONST_DATA = '\n\t\t\t<data element_type="f32" shape="2, 3" offset="0" size="24" />'


def ports(*specs: tuple) -> str:
    """Ports as openvino writes them inside a top-level layer's <input>/<output>: (id, dims[, names])."""
    out = []
    for pid, dims, *names in specs:
        attrs = f' names="{names[0]}"' if names else ""
        body = "".join(f"\t\t\t\t\t<dim>{d}</dim>\n" for d in dims)
        out.append(f'<port id="{pid}" precision="FP32"{attrs}>\n{body}\t\t\t\t</port>')
    return "\n\t\t\t\t".join(out)


SUB_INPUTS, SUB_SWAPPED = ports((0, (2, 3)), (1, (2, 3))), ports((1, (2, 3)), (0, (2, 3)))
LOOP_IN, LOOP_IN_SWAPPED = ports((2, (4,)), (3, (4,))), ports((3, (4,)), (2, (4,)))
LOOP_OUT = ports((4, (4,), "acc"), (5, (-1, 4), "history"))
LOOP_OUT_SWAPPED = ports((5, (-1, 4), "history"), (4, (4,), "acc"))
TI_IN, TI_IN_SWAPPED = ports((0, (1, 5, 4)), (1, (1, 3))), ports((1, (1, 3)), (0, (1, 5, 4)))
CURRENT_ITERATION = 'internal_layer_id="0" purpose="current_iteration"'


def consumed_result(text: str) -> str:
    """The Result z given an output port that a ReLU reads (and a Result after the ReLU)."""
    port = ('\t\t\t<output>\n\t\t\t\t<port id="1" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>\n'
            '\t\t\t\t</port>\n\t\t\t</output>\n')
    start = text.index('type="Result"')
    end = text.index("\t\t</layer>", start)
    relu = ('\t\t<layer id="6" name="r" type="ReLU" version="opset1">\n\t\t\t<input>\n\t\t\t\t<port id="0" '
            'precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>\n\t\t\t</input>\n'
            f'{port}\t\t</layer>\n\t\t<layer id="7" name="r_out" type="Result" version="opset1" output_names="r_out">\n'
            '\t\t\t<input>\n\t\t\t\t<port id="0" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>\n'
            '\t\t\t\t</port>\n\t\t\t</input>\n\t\t</layer>\n')
    text = text[:end] + port + "\t\t</layer>\n" + relu + text[end + len("\t\t</layer>\n"):]
    edges_end = text.index("\t</edges>")
    text = (text[:edges_end] + '\t\t<!-- expect: G111 -->\n\t\t<edge from-layer="5" from-port="1" to-layer="6" '
            'to-port="0" />\n\t\t<edge from-layer="6" from-port="1" to-layer="7" to-port="0" />\n' + text[edges_end:])
    return text


# (code, file name, base, the edits or a function making the fixture's text from the base's)
READER_FIXTURES: list[tuple[str, str, str, Fixture | Callable[[str], str]]] = [
    ("IR006", "fail-parameter-no-data.xml", "sub", Fixture("IR006", "sub", [Edit(X_DATA, X_LAYER, ("IR006",))])),
    ("IR006", "fail-const-no-data.xml", "sub", Fixture("IR006", "sub", [Edit(CONST_DATA, "")],
                                                       also=[('type="Const"', 0, ("IR006",))])),
    ("IR006", "fail-const-no-offset.xml", "sub", Fixture("IR006", "sub", [
        Edit('<data element_type="f32" shape="2, 3" offset="0" size="24" />',
             '<data element_type="f32" shape="2, 3" size="24" />', ("IR006",))])),
    ("IR006", "fail-no-version.xml", "sub", Fixture("IR006", "sub", [
        Edit('type="Subtract" version="opset1"', 'type="Subtract"', ("IR006",))])),
    ("IR006", "fail-no-name.xml", "sub", Fixture("IR006", "sub", [
        Edit('<layer id="0" name="x" type="Parameter"', '<layer id="0" type="Parameter"', ("IR006",))])),
    ("IR006", "fail-empty-type.xml", "sub", Fixture("IR006", "sub", [
        Edit('type="Subtract" version="opset1"', 'type="" version="opset1"', ("IR006",))])),
    ("IR006", "fail-empty-type-result.xml", "sub", Fixture("IR006", "sub", [
        Edit('type="Result" version="opset1"', 'type="" version="opset1"', ("IR006",))])),
    ("IR007", "fail.xml", "sub", Fixture("IR007", "sub", [
        Edit('type="Subtract" version="opset1"', 'type="Subtract" version="opset999"', ("IR007",))])),
    ("IR007", "fail-opset0.xml", "sub", Fixture("IR007", "sub", [
        Edit('type="Add" version="opset1"', 'type="Add" version="opset0"', ("IR007",))])),
    ("IR007", "fail-empty.xml", "sub", Fixture("IR007", "sub", [
        Edit('type="Parameter" version="opset1"', 'type="Parameter" version=""', ("IR007",))])),
    ("IR007", "fail-experimental.xml", "sub", Fixture("IR007", "sub", [
        Edit('type="Subtract" version="opset1"', 'type="Subtract" version="experimental"', ("IR007",))])),
    ("IR007", "pass-experimental.xml", "rnn", Fixture("IR007", "rnn", [
        Edit('type="RNNCell" version="opset1"', 'type="RNNCell" version="experimental"')])),
    ("IR009", "fail.xml", "loop", Fixture("IR009", "loop", [
        Edit('type="Loop" version="opset5"', 'type="Loop" version="opset1"', ("IR009",))])),
    ("IR009", "fail-opset17.xml", "sub", Fixture("IR009", "sub", [
        Edit('type="Subtract" version="opset1"', 'type="Subtract" version="opset17"', ("IR009",))])),
    ("IR009", "fail-no-such-op.xml", "sub", Fixture("IR009", "sub", [
        Edit('type="Subtract" version="opset1"', 'type="FancySubtract" version="opset1"', ("IR009",))])),
    ("IR004", "fail-question-mark.xml", "sub", Fixture("IR004", "sub", [
        Edit("<dim>2</dim>", "<dim>?</dim>", ("IR004",), after='type="Subtract"')])),
    ("IR008", "fail.xml", "sub", Fixture("IR008", "sub", [
        Edit("<dim>2</dim>", "<dim>2..3</dim>", ("IR008",), after='type="Subtract"')])),
    ("G108", "fail.xml", "sub", Fixture("G108", "sub", [Edit(SUB_INPUTS, SUB_SWAPPED, after='type="Subtract"')],
                                         also=[('<port id="0" precision="FP32">', 0, ("G108",), 'type="Subtract"')])),
    ("G109", "fail.xml", "loop", Fixture("G109", "loop", [Edit(LOOP_IN, LOOP_IN_SWAPPED, ("G109",))])),
    ("G109", "fail-outputs.xml", "loop", Fixture("G109", "loop", [Edit(LOOP_OUT, LOOP_OUT_SWAPPED)],
                                                 also=[('names="acc"', 0, ("G109",), 'type="Loop"')])),
    ("G109", "fail-tensor-iterator.xml", "ti", Fixture("G109", "ti", [Edit(TI_IN, TI_IN_SWAPPED, ("G109",))])),
    ("G111", "fail.xml", "sub", Fixture("G111", "sub", [
        Edit('type="Subtract" version="opset1"', 'type="Result" version="opset1"', ("G111",))],
        also=[('from-layer="4" from-port="2" to-layer="5"', 0, ("G111",))])),
    ("G111", "fail-body.xml", "ti", Fixture("G111", "ti", [
        Edit('type="Add" version="opset1"', 'type="Result" version="opset1"', ("G111", "PM409"))],
        also=[('from-layer="6" from-port="2" to-layer="7"', 0, ("G111",))])),
    ("G111", "fail-consumed.xml", "sub", consumed_result),
    ("PM413", "fail.xml", "ti", Fixture("PM413", "ti", [
        Edit('<output axis="1" external_port_id="3"', '<output axis="-2" external_port_id="3"', ("PM413",))])),
    ("PM413", "fail-loop.xml", "loop", Fixture("PM413", "loop", [
        Edit('<output axis="0" external_port_id="5"', '<output axis="-1" external_port_id="5"',
             ("PM413", "SL608"))])),
    ("LP705", "fail-axis.xml", "loop", Fixture("LP705", "loop", [
        Edit(CURRENT_ITERATION, 'internal_layer_id="0" axis="0" purpose="current_iteration"', ("LP705",))])),
    ("LP705", "pass-range-ignored.xml", "loop", Fixture("LP705", "loop", [
        Edit(CURRENT_ITERATION, 'internal_layer_id="0" start="1" end="2" stride="3" part_size="4" '
             'purpose="current_iteration"')])),
    ("IR004", "fail-negative-id.xml", "sub", Fixture("IR004", "sub", [
        Edit('<layer id="3" name="Add_5"', '<layer id="-3" name="Add_5"', ("IR004",)),
        Edit('to-layer="3" to-port="0"', 'to-layer="-3" to-port="0"'),
        Edit('to-layer="3" to-port="1"', 'to-layer="-3" to-port="1"'),
        Edit('<edge from-layer="3"', '<edge from-layer="-3"')])),
    ("IR006", "fail-output-precision.xml", "sub", Fixture("IR006", "sub", [
        Edit('<port id="2" precision="FP32">', '<port id="2">', ("IR006",), after='type="Add"')])),
    ("T214", "fail-no-type.xml", "sub", Fixture("T214", "sub", [
        Edit('<data shape="2,3" element_type="f32" />', '<data shape="2,3" />', ("T214",))])),
    ("T215", "fail.xml", "sub", Fixture("T215", "sub", [
        Edit('element_type="f32" shape="2, 3" offset="0"', 'element_type="dynamic" shape="2, 3" offset="0"',
             ("T215",))])),
]
def _rt_info(indent: str, names: tuple[str, ...], expect_second: bool) -> str:
    lines = [f"{indent}<rt_info>"]
    for i, n in enumerate(names):
        if expect_second and i == 1:
            lines.append(f"{indent}\t<!-- expect: IR010 -->")
        lines.append(f'{indent}\t<attribute name="{n}" version="0" value="Subtract_{i}" />')
    return "\n".join([*lines, f"{indent}</rt_info>"]) + "\n"


def rt_info_layer(names: tuple[str, ...], expect: bool) -> Callable[[str], str]:
    """The Subtract's <rt_info> holding `names` (the second marked when `expect`)."""
    def make(text: str) -> str:
        at = text.index('<data auto_broadcast="numpy" />', text.index('type="Subtract"'))
        end = text.index("\n", at) + 1
        return text[:end] + _rt_info("\t\t\t", names, expect) + text[end:]
    return make


def rt_info_port(text: str) -> str:
    """The Subtract's output port with fused_names twice in its <rt_info>."""
    at = text.index('<port id="2" precision="FP32"', text.index('type="Subtract"'))
    end = text.index("\n", at) + 1
    return text[:end] + _rt_info("\t\t\t\t\t", ("fused_names", "fused_names"), True) + text[end:]


def pre_process(means: tuple[str, ...], ref: str = "x", expect: str = "",
                on_mean: bool = False) -> Callable[[str], str]:
    """A legacy <pre-process> for input `ref` after the edges, one <channel> per mean (each a <mean>'s
    attributes); `expect` marks the section (or, `on_mean`, its first mean)."""
    def make(text: str) -> str:
        head = f"\t<!-- expect: {expect} -->\n" if expect and not on_mean else ""
        body = ""
        for i, m in enumerate(means):
            mark_it = f"\t\t\t<!-- expect: {expect} -->\n" if expect and on_mean and i == 0 else ""
            body += f'\t\t<channel id="{i}">\n{mark_it}\t\t\t<mean {m}/>\n\t\t</channel>\n'
        section = f'{head}\t<pre-process reference-layer-name="{ref}">\n{body}\t</pre-process>\n'
        return text.replace("\t</edges>\n", "\t</edges>\n" + section, 1)
    return make


MEANS = ('value="1.0" ', 'value="2.0" ', 'value="3.0" ')

READER_FIXTURES += [
    ("IR011", "fail.xml", "sub", pre_process(MEANS, ref="nope", expect="IR011")),
    ("IR011", "fail-no-value.xml", "sub", pre_process(("", "", ""), expect="IR011", on_mean=True)),
    ("IR011", "fail-channels.xml", "sub", pre_process(MEANS[:1], expect="IR011")),
    ("IR011", "fail-blob-size.xml", "sub", pre_process(('offset="0" size="8" ', 'offset="0" size="4" ',
                                                        'offset="0" size="4" '), expect="IR011", on_mean=True)),
    ("IR011", "pass-empty.xml", "sub", pre_process(())),
    ("IR012", "fail.xml", "sub", pre_process(MEANS, expect="IR012")),
    ("IR010", "fail.xml", "sub", rt_info_layer(("fused_names", "fused_names"), True)),
    ("IR010", "fail-port.xml", "sub", rt_info_port),
    ("IR010", "pass-unknown-name.xml", "sub", rt_info_layer(("foo", "foo"), False)),
]
# rules whose pass.xml is the unedited base (a rule new with these fixtures has no other)
PASSES = {"IR010": "sub", "IR011": "sub", "IR012": "sub",
          "IR007": "sub", "IR009": "loop", "IR008": "sub", "G108": "sub", "G109": "loop", "G111": "sub", "PM413": "ti",
          "T215": "sub"}


def make_string_fixtures() -> None:
    """W304: a string Const (["ab", "cde"]) written by openvino, its .bin rewritten per case."""
    import struct

    import openvino as ov
    import openvino.opset13 as ops

    with tempfile.TemporaryDirectory() as tmp:
        c = ops.constant(ov.Tensor(np.array(["ab", "cde"])))
        ov.save_model(ov.Model([ops.result(c, name="s")], [], "strings"), f"{tmp}/s.xml", compress_to_fp16=False)
        text = Path(f"{tmp}/s.xml").read_text()
    out = OUT / "W304"
    out.mkdir(parents=True, exist_ok=True)

    def words(*v: int) -> bytes:
        return struct.pack(f"<{len(v)}i", *v)

    cases = {"pass": (words(2, 0, 2, 5) + b"abcde", False), "pass-first-offset": (words(2, 1, 2, 5) + b"abcde", False),
             "fail": (words(2, 0, 5, 2) + b"abcde", True), "fail-count": (words(1, 0, 2, 5) + b"abcde", True),
             "fail-header": ((words(2, 0, 2, 5) + b"abcde")[:10], True),
             "fail-past-end": (words(2, 0, 2, 9) + b"abcde", True)}
    for name, (blob, bad) in cases.items():
        data = text.index('<data element_type="string"')
        line = text.rindex("\n", 0, data) + 1
        t = text[:line] + (f"{text[line:data]}<!-- expect: W304 -->\n" if bad else "") + text[line:]
        t = re.sub(r'size="\d+"', f'size="{len(blob)}"', t, count=1)
        (out / f"{name}.xml").write_text(t)
        (out / f"{name}.bin").write_bytes(blob)


def make_filled_fixtures() -> None:
    """T217: a Concat of x and y along axis 0, written by openvino; fail.xml drops its axis (OpenVINO
    fills 0), pass.xml keeps it."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2, 3], np.float32, name="x")
    y = ops.parameter([2, 3], np.float32, name="y")
    model = ov.Model([ops.result(ops.concat([x, y], 0), name="z")], [x, y], "concat")
    out = OUT / "T217"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        ov.save_model(model, f"{tmp}/c.xml", compress_to_fp16=False)
        text = Path(f"{tmp}/c.xml").read_text()
    (out / "pass.xml").write_text(text)
    data = text.index('<data axis="0" />')
    line = text.rindex("\n", 0, data) + 1
    fail = text[:line] + f"{text[line:data]}<!-- expect: T217 -->\n" + text[line:data] + "<data />" + \
        text[data + len('<data axis="0" />'):]
    (out / "fail.xml").write_text(fail)
    for name in ("pass", "fail"):
        (out / f"{name}.bin").write_bytes(b"")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bases = save_bases(BASES, Path(tmp))
        for code, base in PASSES.items():
            (OUT / code).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(bases[base], OUT / code / "pass.xml")
            shutil.copyfile(bases[base].with_suffix(".bin"), OUT / code / "pass.bin")
        for code, name, base, how in READER_FIXTURES:
            text = bases[base].read_text()
            (OUT / code / name).write_text(mark(text, how) if isinstance(how, Fixture) else how(text))
            shutil.copyfile(bases[base].with_suffix(".bin"), (OUT / code / name).with_suffix(".bin"))
            print(code, name)
    make_string_fixtures()
    make_filled_fixtures()


if __name__ == "__main__":
    main()
