"""Output entries whose `external_port_id` names no output port: OpenVINO's IR reader gives the entries of
an If branch, a Loop or a TensorIterator the layer's outputs in the order of their ids, and runs the model.
Models built with OpenVINO's API and saved, their output entries' ids then edited: `irlint.run` gives what
the CPU plugin (f32) gives, with a DepartureWarning; IF801/PM401 stay errors at the edited entries' lines
and name the port OpenVINO gives them."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import DepartureWarning
from tests import ifmodels

ov = pytest.importorskip("openvino")
o = pytest.importorskip("openvino.opset8")

X2 = np.float32([1, 2])
X32 = np.float32([[1, 2], [3, 4], [5, 6]])


def _two_output_loop(loop: bool):
    """x [3,2] sliced on axis 0; outputs A (the last x_t + 1) and B (every x_t * 10, concatenated)."""
    x = o.parameter([3, 2], np.float32, name="x")
    xi = o.parameter([1, 2], np.float32)
    ra = o.result(o.add(xi, o.constant(np.float32([[1, 1]]))))
    rb = o.result(o.multiply(xi, o.constant(np.float32([[10, 10]]))))
    if loop:
        node = o.loop(o.constant(np.int64(3)), o.constant(True))
        node.set_function(ov.Model([ra, rb, o.result(o.constant(True))], [xi]))
        node.set_special_body_ports([-1, 2])
    else:
        node = o.tensor_iterator()
        node.set_body(ov.Model([ra, rb], [xi]))
    node.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    a = node.get_iter_value(ra.output(0), -1)
    b = node.get_concatenated_slices(rb.output(0), 0, 1, 1, -1, 0)
    return ov.Model([o.result(a, name="A"), o.result(b, name="B")], [x], "loop" if loop else "ti")


def _runs_as_the_cpu_plugin(path: Path, feeds: dict[str, np.ndarray], warned: str) -> None:
    model = ov.Core().read_model(str(path))
    want = ifmodels.reference(model, feeds)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = irlint.run(path, feeds)
    departures = [str(w.message) for w in caught if issubclass(w.category, DepartureWarning)]
    assert len(departures) == 1 and warned in departures[0], departures
    assert sorted(got) == sorted(want)
    for name, w in want.items():
        np.testing.assert_array_equal(got[name], w, err_msg=name)


def _errors(path: Path) -> list[tuple[str, int, str]]:
    return sorted((d.code, d.loc.line, d.message) for d in irlint.check(path) if d.severity is Severity.ERROR)


# output entry ids of outputs A, B (ports 2, 3) -> what the edit writes: 9 and 3 put B's entry first, so
# OpenVINO gives it port 2 (A); 0 and 1 keep the order
IF_SHIFTS = {"swapped": {"2": "9"}, "below": {"2": "0", "3": "1"}}


@pytest.mark.parametrize("shift", sorted(IF_SHIFTS))
@pytest.mark.parametrize("cond", [True, False])
def test_if_output_entries_are_mapped_by_order(shift: str, cond: bool, tmp_path: Path) -> None:
    ids = IF_SHIFTS[shift]
    path, edited = ifmodels.shifted_output_ids(ifmodels.save(ifmodels.two_output_if(), tmp_path, "if2"), ids)
    assert len(edited) == 2 * len(ids)  # both branches
    branch = "then" if cond else "else"
    _runs_as_the_cpu_plugin(
        path,
        {"cond": np.bool_(cond), "x": X2},
        f"{branch} branch: an <output> entry's external_port_id names no output port",
    )


def test_if_outputs_mapped_by_order_swap_the_branch_results(tmp_path: Path) -> None:
    """With ids 9 (A's Result) and 3 (B's), port 2 gives B's value: x * 10 where the file's reading says x + 1."""
    path, _ = ifmodels.shifted_output_ids(ifmodels.save(ifmodels.two_output_if(), tmp_path, "if2"), {"2": "9"})
    with pytest.warns(DepartureWarning, match=r"external_port_id 3 -> port 2, external_port_id 9 -> port 3"):
        got = irlint.run(path, {"cond": np.bool_(True), "x": X2})
    np.testing.assert_array_equal(got["A"], X2 * 10)
    np.testing.assert_array_equal(got["B"], X2 + 1)


def test_if_output_entry_naming_no_port_is_if801_saying_what_openvino_runs(tmp_path: Path) -> None:
    path, edited = ifmodels.shifted_output_ids(ifmodels.save(ifmodels.two_output_if(), tmp_path, "if2"), {"2": "9"})
    errors = _errors(path)
    assert [(c, line) for c, line, _ in errors] == [("IF801", n) for n in edited]
    assert all(
        "in the order of their ids and runs the model: this entry gives output port 3" in m for _, _, m in errors
    )


@pytest.mark.parametrize("loop", [True, False], ids=["Loop", "TensorIterator"])
@pytest.mark.parametrize("ids", [("9", "0"), ("0", "9")], ids=["9-0", "0-9"])
def test_loop_output_entries_are_mapped_by_order(loop: bool, ids: tuple[str, str], tmp_path: Path) -> None:
    """Ids 9 (A's last value) and 0 (B's concatenation) swap the outputs, so each port's declared shape is
    the other's (SL606 at both ports); 0 and 9 keep them."""
    path = ifmodels.save(_two_output_loop(loop), tmp_path, "loop")
    a, b = (3, 4) if loop else (1, 2)
    path, edited = ifmodels.shifted_output_ids(path, {str(a): ids[0], str(b): ids[1]})
    assert len(edited) == 2
    _runs_as_the_cpu_plugin(path, {"x": X32}, "an <output> entry's external_port_id names no output port")
    errors = _errors(path)
    ports = [
        n for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r'<port [^>]*names="[AB]"', line)
    ]
    swapped = [("SL606", n) for n in ports] if ids == ("9", "0") else []
    assert [(c, line) for c, line, _ in errors] == sorted([("PM401", n) for n in edited] + swapped)
    assert all("in the order of their ids and runs the model" in m for c, _, m in errors if c == "PM401")


def _listed_backwards(path: Path, layer_type: str) -> Path:
    """`path` with the two output ports of its `layer_type` layer listed in the other order (ids, edges kept)."""
    text = path.read_text()
    at = text.index(f'type="{layer_type}"')
    block = re.compile(r"(<output>\s*)(<port .*?</port>\s*)(<port .*?</port>\s*)(</output>)", re.S)
    m = block.search(text, at)
    assert m is not None
    out = path.with_name(f"backwards-{path.name}")
    out.write_text(text[: m.start(2)] + m.group(3).rstrip() + "\n" + m.group(2) + text[m.end(3) :])
    out.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    return out


def test_if_outputs_listed_out_of_order_keep_the_spec_and_warn(tmp_path: Path) -> None:
    """Ports 3, 2 listed in that order, entries 2 (A's Result) and 3 (B's): the spec gives port 2 A's value and
    so does the run; OpenVINO gives the k-th id the k-th port listed, so its port 2 holds B's: the run warns,
    and G109 reports the listing."""
    path = _listed_backwards(ifmodels.save(ifmodels.two_output_if(), tmp_path, "if2"), "If")
    feeds = {"cond": np.bool_(True), "x": X2}
    want = ifmodels.reference(ov.Core().read_model(str(path)), feeds)
    np.testing.assert_array_equal(want["A"], X2 * 10)  # OpenVINO: swapped
    with pytest.warns(DepartureWarning, match=r"listed out of the order of their ids.*external_port_id 2 -> port 3"):
        got = irlint.run(path, feeds)
    np.testing.assert_array_equal(got["A"], X2 + 1)
    np.testing.assert_array_equal(got["B"], X2 * 10)
    assert [c for c, _, _ in _errors(path)] == ["G109"]  # the ports listed out of order: an error of its own


@pytest.mark.parametrize("loop", [True, False], ids=["Loop", "TensorIterator"])
def test_loop_outputs_listed_out_of_order_keep_the_spec_and_warn(loop: bool, tmp_path: Path) -> None:
    path = _listed_backwards(
        ifmodels.save(_two_output_loop(loop), tmp_path, "loop"), "Loop" if loop else "TensorIterator"
    )
    want = ifmodels.reference(ov.Core().read_model(str(path)), {"x": X32})
    assert want["A"].shape == (3, 2)  # OpenVINO: A holds the concatenation
    with pytest.warns(DepartureWarning, match=r"listed out of the order of their ids"):
        got = irlint.run(path, {"x": X32})
    np.testing.assert_array_equal(got["A"], X32[-1:] + 1)
    np.testing.assert_array_equal(got["B"], X32 * 10)
    assert [c for c, _, _ in _errors(path)] == ["G109"]
