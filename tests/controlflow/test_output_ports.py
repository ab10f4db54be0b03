"""irlint.controlflow.outputs: the output port each `<output>` entry gives — its id where every id names an
output port, else its rank among the ids (OpenVINO's reader; tests/interp/test_output_order.py runs such
models against the CPU plugin)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import irlint
from irlint.controlflow import loop_plan
from irlint.controlflow.outputs import entry_of_port, order_departure, output_ports, remapped

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "loop_scan.xml"
LAST = '<output external_port_id="4" internal_layer_id="14" />'  # the Loop's outputs are ports 4 and 5
CONCAT = '<output axis="0" external_port_id="5" internal_layer_id="16"'


def _loop(tmp_path: Path, last: str, concat: str):
    text = EXAMPLE.read_text()
    assert LAST in text and CONCAT in text
    text = text.replace(LAST, LAST.replace('"4"', f'"{last}"')).replace(CONCAT, CONCAT.replace('"5"', f'"{concat}"'))
    xml = tmp_path / "m.xml"
    xml.write_text(text)
    shutil.copy(EXAMPLE.with_suffix(".bin"), xml.with_suffix(".bin"))
    model = irlint.load(xml)
    return next(la for _, la in model.layers() if la.type == "Loop")


def _given(layer) -> dict[int | None, int | None]:
    """Body Result id -> the output port its entry gives."""
    return {e.internal_layer_id: p for e, p in output_ports(layer, layer.port_map).items()}


@pytest.mark.parametrize(
    "last,concat,want",
    [
        ("4", "5", {14: 4, 16: 5}),  # the ids name the ports
        ("5", "4", {14: 5, 16: 4}),  # they name them swapped: the ids still decide
        ("9", "5", {14: 5, 16: 4}),  # 9 names no port: by rank, 5 first
        ("0", "9", {14: 4, 16: 5}),  # 0 is an input port: by rank, the order kept
        ("7", "7", {14: 4, 16: None}),  # a repeated id: the reader keeps the first entry only
    ],
)
def test_output_ports(last: str, concat: str, want: dict[int, int | None], tmp_path: Path) -> None:
    layer = _loop(tmp_path, last, concat)
    assert _given(layer) == want
    plan = loop_plan(layer)
    for pe in plan.data_outputs:  # the plan's port is that port; a dropped entry keeps its own id
        assert pe.port == (want[pe.body_layer] if want[pe.body_layer] is not None else pe.entry.external_port_id)
    moved = {e.internal_layer_id: p for e, p in remapped(layer, layer.port_map)}
    assert moved == {r: p for r, p in want.items() if p is not None and str(p) != (last if r == 14 else concat)}
    assert bool(order_departure(layer, layer.port_map, "here")) == bool(moved)
    assert {p: e.internal_layer_id for p, e in entry_of_port(layer, layer.port_map).items()} == {
        p: r for r, p in want.items() if p is not None
    }


def test_the_execution_condition_entry_is_not_counted(tmp_path: Path) -> None:
    """Its id -1 keeps it out of the order, as the reader skips negative ids."""
    layer = _loop(tmp_path, "9", "8")
    assert _given(layer) == {14: 5, 16: 4}
    assert "external_port_id 8 -> port 4, external_port_id 9 -> port 5" in order_departure(layer, layer.port_map, "x")
