"""Regenerate the ST90x fixtures (ReadValue/Assign variables): `python tests/rules/make_state_fixtures.py`.

Like make_fixtures.py (which calls this at its end): valid models with variables are written by
openvino, then edited as text to hold the defect, with `<!-- expect: CODE -->` above each reported
line; pass.xml is a valid model with the same construct.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(ROOT))

from tests.rules.make_fixtures import Edit, Fixture, mark, save_bases  # noqa: E402

CODES = ("ST901", "ST902", "ST903", "ST904")


def _variable(shape, name):
    import openvino as ov
    import openvino.op.util as util

    info = util.VariableInfo()
    info.data_shape, info.data_type, info.variable_id = ov.PartialShape(shape), ov.Type.f32, name
    return util.Variable(info)


def accumulate():
    """One variable 'h' initialised from x: y = h + x, h <- y (what LowLatency2 leaves, in small)."""
    import openvino as ov
    import openvino.opset6 as o

    x = o.parameter([2, 3], np.float32, name="x")
    v = _variable([2, 3], "h")
    y = o.add(o.read_value(x, v), x)
    return ov.Model([o.result(y, name="y")], [o.assign(y, v)], [x], "state_accumulate")


def two_variables():
    """Variables 'a' and 'b', each read, updated and assigned once."""
    import openvino as ov
    import openvino.opset6 as o

    x = o.parameter([2, 3], np.float32, name="x")
    va, vb = _variable([2, 3], "a"), _variable([2, 3], "b")
    ya = o.add(o.read_value(x, va), x)
    yb = o.multiply(o.read_value(x, vb), x)
    return ov.Model([o.result(ya, name="ya"), o.result(yb, name="yb")], [o.assign(ya, va), o.assign(yb, vb)],
                    [x], "state_two")


def two_assigns():
    """One variable 'h' written by two Assigns (openvino's API builds it; its CPU plugin cannot run it)."""
    import openvino as ov
    import openvino.opset6 as o

    x = o.parameter([2, 3], np.float32, name="x")
    v = _variable([2, 3], "h")
    rv = o.read_value(x, v)
    y1, y2 = o.add(rv, x), o.multiply(rv, x)
    return ov.Model([o.result(y1, name="y1"), o.result(y2, name="y2")], [o.assign(y1, v), o.assign(y2, v)], [x],
                    "state_two_assigns")


def no_initial_value():
    """ReadValue-6 without an input (zeros while fresh) read out; Assign stores relu(x)."""
    import openvino as ov
    import openvino.opset6 as o

    x = o.parameter([2, 3], np.float32, name="x")
    v = _variable([2, 3], "h")
    return ov.Model([o.result(o.read_value(v), name="y")], [o.assign(o.relu(x), v)], [x], "state_noinit")


def growing():
    """A dynamic variable_shape: the state grows by x every inference (legal: the shape fits '?')."""
    import openvino as ov
    import openvino.opset6 as o

    x = o.parameter([-1], np.float32, name="x")
    v = _variable([-1], "grow")
    c = o.concat([o.read_value(x, v), x], 0)
    return ov.Model([o.result(c, name="c")], [o.assign(c, v)], [x], "state_growing")


BASES = {"accumulate": accumulate, "two": two_variables, "two_assigns": two_assigns, "noinit": no_initial_value,
         "growing": growing}
DIMS = "<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>"

# (directory, file name, base, fixture): fail.xml / fail-<case>.xml, and pass.xml from `pass_base`.
FAILS = [
    ("ST901", "fail.xml", Fixture("ST901", "accumulate", [
        Edit('<data variable_id="h" />', '<data variable_id="h_stat" />', ("ST901",))],
        also=[('variable_id="h" variable_type', 0, ("ST902",))], pass_base="accumulate")),
    ("ST902", "fail.xml", None),  # make_st902: the Assign removed
    ("ST903", "fail.xml", Fixture("ST903", "two_assigns", [],
        also=[('<data variable_id="h" />', 0, ("ST903",), '<layer id="5" name="Assign')], pass_base="two")),
    ("ST904", "fail.xml", Fixture("ST904", "noinit", [
        Edit('variable_shape="2,3"', 'variable_shape="3,2"'),
        Edit(DIMS, "<dim>3</dim>\n\t\t\t\t\t<dim>2</dim>", after='type="ReadValue"'),
        Edit(DIMS, "<dim>3</dim>\n\t\t\t\t\t<dim>2</dim>", after='type="Result"')],
        also=[('type="Assign"', 3, ("ST904",))], pass_base="growing")),
    ("ST904", "fail-type.xml", Fixture("ST904", "noinit", [
        Edit('variable_type="f32"', 'variable_type="i32"'),
        Edit('precision="FP32"', 'precision="I32"', after='type="ReadValue"'),
        Edit('precision="FP32"', 'precision="I32"', after='type="Result"')],
        also=[('type="Assign"', 3, ("ST904",))])),
]


def make_st902(text: str) -> str:
    """The Assign of the no-initial-value model removed (with its input's producer, a ReLU, and both edges)."""
    for kind in ("Assign", "ReLU"):
        start = text.rindex("\n", 0, text.index(f'type="{kind}"')) + 1
        end = text.index("</layer>", start) + len("</layer>\n")
        text = text[:start] + text[end:]
    for edge in ('<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />',
                 '<edge from-layer="1" from-port="1" to-layer="3" to-port="0" />'):
        start = text.rindex("\n", 0, text.index(edge)) + 1
        text = text[:start] + text[text.index("\n", start) + 1:]
    return mark(text, Fixture("ST902", "noinit", [], also=[('variable_id="h"', 0, ("ST902",))]))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bases = save_bases(BASES, Path(tmp))
        for code in CODES:
            if (OUT / code).exists():
                shutil.rmtree(OUT / code)
        for code, fname, fx in FAILS:
            d = OUT / code
            d.mkdir(parents=True, exist_ok=True)
            base = fx.base if fx is not None else "noinit"
            src = bases[base]
            text = make_st902(src.read_text()) if fx is None else mark(src.read_text(), fx)
            (d / fname).write_text(text)
            shutil.copyfile(src.with_suffix(".bin"), d / Path(fname).with_suffix(".bin"))
            pass_base = fx.pass_base if fx is not None and fx.pass_base else ("noinit" if fx is None else None)
            if fname == "fail.xml" and pass_base is not None:
                shutil.copyfile(bases[pass_base], d / "pass.xml")
                shutil.copyfile(bases[pass_base].with_suffix(".bin"), d / "pass.bin")
            print(code, fname)


if __name__ == "__main__":
    main()
