"""Write the textbook-body fixtures of BE507 and BE508: `python tests/rules/make_textbook_fixtures.py`.

The models are tests/differential/textbook.py's cells as openvino writes them, with `<!-- expect: CODE -->`
above the back edge the rule reports (tests/rules/test_textbook_rnn.py holds each against the CPU plugin):

- BE507/fail-textbook.xml: h = tanh(Squeeze(x[k]) + h) in a TensorIterator;
- BE507/fail-textbook-loop.xml: h = sigmoid(Reshape(x[k]) * W + h) in a Loop (a weighted slice);
- BE507/fail-swap.xml: a <- b, b <- a, a's entry first;
- BE507/pass-textbook.xml: h = tanh(h + Squeeze(x[k])), the state first;
- BE508/fail-result-reads-slice.xml: a Result reading the slice's Squeeze, passed on to a state the body reads.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(ROOT))

from tests.differential import textbook as tb  # noqa: E402
from tests.rules.make_case_fixtures import _mark_line  # noqa: E402

N, T = 3, 4


def _model(cell: str, order: str, view: str, act: str, kind: str, seed: int = 0, want: str = ""):
    for s in range(seed, seed + 200):
        r = random.Random(s)
        c = tb._Cell(r, N)
        c.cell, c.order, c.view, c.act = cell, order, view, act
        m = tb._api_model(r, c, kind, T, N, outputs="last")
        if all(w in c.notes for w in want.split(",") if w):
            return m
    raise AssertionError(want)


CASES = [
    ("BE507", "fail-textbook", lambda: _model("rnn", "xh", "squeeze", "tanh", "ti"), 1),
    ("BE507", "fail-textbook-loop", lambda: _model("rnn_weighted", "hx", "reshape", "sigmoid", "loop"), 1),
    ("BE507", "fail-swap", lambda: _model("swap", "xh", "none", "none", "ti", seed=2), 1),
    ("BE507", "pass-textbook", lambda: _model("rnn", "hx", "squeeze", "tanh", "ti"), 0),
    (
        "BE508",
        "fail-result-reads-slice",
        lambda: _model("pass", "hx", "squeeze", "relu", "ti", want="passes slice,adds a"),
        1,
    ),
]


def main() -> None:
    import openvino as ov

    import irlint

    for code, name, build, marks in CASES:
        path = OUT / code / f"{name}.xml"
        ov.save_model(build(), str(path), compress_to_fp16=False)
        text = path.read_text()
        found = irlint.check(path)
        assert len([d for d in found if d.code == code]) == marks, (name, [d.message for d in found])
        lines = text.splitlines()
        for d in sorted(found, key=lambda d: -d.loc.line):  # others too: BE506 where the body reads b
            text = _mark_line(text, lines[d.loc.line - 1].strip(), d.code)
        path.write_text(text)
        print(code, name)


if __name__ == "__main__":
    main()
