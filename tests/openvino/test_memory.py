"""irlint/openvino/memory.py on the rule fixtures: which value the CPU plugin reads after writing over its
memory, and why (the rules' tests hold the warnings; tests/rules/test_textbook_rnn.py holds the plugin)."""

from __future__ import annotations

from pathlib import Path

import pytest

import irlint
from irlint.engine.context import Context
from irlint.ir.model import Layer
from irlint.openvino.memory import Kind, Overwrite, overwrites

FIXTURES = Path(__file__).parents[1] / "rules" / "fixtures"


def _loops(path: Path) -> tuple[Context, list[Layer]]:
    model = irlint.load(path)
    return Context(model), [lay for lay in model.graph.layers if lay.type in ("TensorIterator", "Loop")]


def _all(path: Path) -> list[Overwrite]:
    ctx, loops = _loops(path)
    return [o for lay in loops for o in overwrites(ctx, lay)]


def test_the_textbook_rnn_is_computed_in_the_slices_memory() -> None:
    (o,) = _all(FIXTURES / "BE507" / "fail-textbook.xml")
    assert o.kind is Kind.SLICE_OVER_VALUE and o.writer is not None and o.writer.type == "Add"
    assert o.param.name == "x_t" and o.views[0].type == "Squeeze" and o.back_edge is not None


def test_the_weighted_slice_heads_the_node_the_add_joins() -> None:
    (o,) = _all(FIXTURES / "BE507" / "fail-textbook-loop.xml")
    assert o.kind is Kind.SLICE_OVER_VALUE and o.fused is not None and o.fused.type == "Multiply"


def test_the_second_copy_of_a_swap_reads_the_first_ones_result() -> None:
    (o,) = _all(FIXTURES / "BE507" / "fail-swap.xml")
    assert o.kind is Kind.STATE_PASSED and o.writer is None and o.param.name == "a"


def test_a_result_reading_the_slice_passes_the_slices_memory() -> None:
    (o,) = _all(FIXTURES / "BE508" / "fail-result-reads-slice.xml")
    assert o.kind is Kind.SLICE_PASSED and o.param.name == "x_t"


def test_an_invariant_input_written_over() -> None:
    found = _all(FIXTURES / "PM414" / "fail.xml")
    assert found and all(o.kind is Kind.INVARIANT_WRITTEN and o.writer is not None for o in found)


@pytest.mark.parametrize("name", ["BE507/pass-textbook.xml", "BE508/pass.xml", "BE507/pass.xml"])
def test_nothing_is_overwritten_where_the_plugin_computes_the_spec(name: str) -> None:
    assert _all(FIXTURES / name) == []


def test_asking_for_back_edge_passes_reads_no_shapes() -> None:
    """BE508 asks only for SLICE_PASSED: the analysis then needs no shape inference."""
    ctx, loops = _loops(FIXTURES / "BE508" / "fail-result-reads-slice.xml")
    assert [o.kind for lay in loops for o in overwrites(ctx, lay, frozenset({Kind.SLICE_PASSED}))]
    assert ctx._shapes is None
