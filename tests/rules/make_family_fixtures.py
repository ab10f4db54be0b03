"""Fixtures of LP717 to LP721, PM421 to PM423 and BE505's grown TensorIterator state, from the Loop families of
tests/differential/families.py.

`python tests/rules/make_family_fixtures.py [CODE/name ...]` (needs openvino) writes
tests/rules/fixtures/<CODE>/fail.xml and pass.xml (or only the cases named), with
`<!-- expect: CODE -->` above each line that must be reported.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.differential import families as fam  # noqa: E402

OUT = Path(__file__).parent / "fixtures"


def _mark(text: str, pattern: str, code: str) -> str:
    """Mark the first line matching `pattern` (a regular expression)."""
    m = re.search(pattern, text)
    assert m is not None, pattern
    start = text.rindex("\n", 0, m.start()) + 1
    indent = text[start : m.start()][: len(text[start : m.start()]) - len(text[start : m.start()].lstrip())]
    return text[:start] + f"{indent}<!-- expect: {code} -->\n" + text[start:]


def current_iteration_rank(dynamic: bool) -> object:
    """A Loop adding its current iteration to a state; the current_iteration Parameter declared of dynamic
    rank (OpenVINO keeps it: T213, and the Loop's output of dynamic rank: PM420) or a scalar."""
    import numpy as np
    import openvino as ov
    import openvino.opset13 as ops

    x, h = ops.parameter([2], np.float32, name="x"), ops.parameter([2], np.float32, name="h")
    i = ops.parameter(ov.PartialShape.dynamic() if dynamic else [], np.int64, name="i")
    rh = ops.result(ops.add(h, ops.convert(i, "f32"), name="next_h"))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([ops.result(ops.constant(np.bool_(True))), rh], [h, i]))
    loop.set_special_body_ports([1, 0])
    loop.set_merged_input(h, x.output(0), rh.output(0))
    return ov.Model([ops.result(loop.get_iter_value(rh.output(0), -1), name="out")], [x], "current_iteration_rank")


BACK_EDGE = r'<edge from-layer="\d+" to-layer="\d+" />'
CONCAT = r'<output axis="\d+" external_port_id='
CASES: list[tuple[str, str, Callable[[], object], str | None]] = [
    ("LP718", "fail", lambda: fam.iteration_back_edge(how="direct"), BACK_EDGE),
    ("LP718", "fail-view", lambda: fam.iteration_back_edge(how="reshape", shape=(1,)), BACK_EDGE),
    ("LP718", "pass", lambda: fam.iteration_back_edge(how="add"), None),
    ("PM421", "fail", lambda: fam.invariant_back_edge(kind="loop"), BACK_EDGE),
    ("PM421", "fail-ti", lambda: fam.invariant_back_edge(kind="ti"), BACK_EDGE),
    ("PM421", "pass", lambda: fam.invariant_back_edge(kind="loop", how="add"), None),
    (
        "PM422",
        "fail",
        lambda: fam.shared_unchanged_result(kind="loop", role="invariant", outputs=2),
        r'<output external_port_id="\d+" internal_layer_id="\d+" />',
    ),
    (
        "PM422",
        "fail-merged-ti",
        lambda: fam.shared_unchanged_result(kind="ti", role="merged", outputs=2),
        r'<output external_port_id="\d+" internal_layer_id="\d+" />',
    ),
    ("PM422", "pass", lambda: fam.shared_unchanged_result(kind="loop", role="invariant", outputs=1), None),
    (
        "PM423",
        "fail",
        lambda: fam.grown_unread_state(kind="loop", read_state=False),
        r'<input external_port_id="\d+" internal_layer_id="0" />',
    ),
    ("PM423", "pass", lambda: fam.grown_unread_state(kind="loop", read_state=True), None),
    ("LP719", "fail", lambda: fam.early_stop_state(init="const", how="direct"), CONCAT),
    ("LP719", "pass", lambda: fam.early_stop_state(init="const", how="and"), None),
    ("LP717", "fail-dropped-input", lambda: fam.constant_fed_unread_input(unread_input=True, dtype="u8"), CONCAT),
    ("LP717", "pass-folded", lambda: fam.constant_fed_unread_input(unread_input=True, dtype="f32"), None),
    ("LP720", "fail", lambda: fam.unbounded_stack(), CONCAT),
    ("LP720", "fail-int32-max", lambda: fam.unbounded_stack(trip=2**31 - 1), CONCAT),
    ("LP720", "pass", lambda: fam.unbounded_stack(trip=-1), None),
    ("LP720", "pass-million", lambda: fam.unbounded_stack(trip=10**6), None),
    ("LP720", "pass-input", lambda: fam.unbounded_stack(source="param"), None),
    ("LP721", "fail", lambda: fam.nested_grown_count(), CONCAT),
    ("LP721", "pass", lambda: fam.nested_grown_count(grow=False), None),
    ("LP721", "pass-unread", lambda: fam.nested_grown_count(read=False), None),
    ("LP721", "pass-once", lambda: fam.nested_grown_count(trip=1), None),
    ("LP721", "pass-condition", lambda: fam.nested_grown_count(count_by="condition"), None),
    ("BE505", "fail-ti-grown-state", lambda: fam.grown_unread_state(kind="ti", trip=3), BACK_EDGE),
    ("BE505", "fail-ti-grown-state-once", lambda: fam.grown_unread_state(kind="ti", trip=1), BACK_EDGE),
    ("T213", "fail-current-iteration", lambda: current_iteration_rank(True),
     r'<data shape="\.\.\." element_type="i64" />|PM420:<port id="3" precision="FP32" names="out" />'),
    ("T213", "pass-current-iteration", lambda: current_iteration_rank(False), None),
]


def main(only: list[str]) -> None:
    """Write every case, or those whose CODE/name is in `only`."""
    import openvino as ov

    with tempfile.TemporaryDirectory() as tmp:
        for code, name, make, pattern in CASES:
            if only and f"{code}/{name}" not in only:
                continue
            src = Path(tmp) / f"{code}-{name}.xml"
            ov.save_model(make(), str(src), compress_to_fp16=False)
            d = OUT / code
            d.mkdir(parents=True, exist_ok=True)
            text = src.read_text()
            for one in (pattern or "").split("|") if pattern else []:  # "CODE:pattern" marks another code
                other, _, rx = one.rpartition(":") if re.match(r"[A-Z]+\d+:", one) else ("", "", one)
                text = _mark(text, rx, other or code)
            (d / f"{name}.xml").write_text(text)
            (d / f"{name}.bin").write_bytes(src.with_suffix(".bin").read_bytes())
            print(code, name)


if __name__ == "__main__":
    main(sys.argv[1:])
