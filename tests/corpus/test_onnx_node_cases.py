"""ONNX node test cases through OpenVINO and irlint: the regression list of scripts/onnx_audit.py.

Each case is generated in memory by the installed onnx package, converted by `openvino.convert_model`
and written by `save_model` at test time, then (as the audit does it) OpenVINO's CPU plugin must
compute ONNX's expected outputs, the IR must lint without warnings or errors, and irlint's interpreter
must compute what OpenVINO computes (tests/opcheck.py's tolerance). The list holds the cases the
audit's fixes made agree, plus control flow, recurrent and low-precision cases that must stay so.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from pathlib import Path

import pytest

from tests.scripts import script

ov = pytest.importorskip("openvino")
pytest.importorskip("onnx")

ROOT = Path(__file__).resolve().parents[2]

# case name -> the module of onnx.backend.test.case.node that generates it (importing a module runs
# its exporters, so only these are generated: collect_testcases would build all ~1,900 cases)
CASES = {
    # AvgPool-16 (dilations): irlint bound it as AvgPool-14 and inferred undilated shapes (T211)
    "test_averagepool_2d_dilations": "averagepool",
    "test_averagepool_3d_dilations_small": "averagepool",
    "test_averagepool_3d_dilations_large_count_include_pad_is_1_ceil_mode_is_True": "averagepool",
    "test_lppool_2d_dilations": "lppool",
    # ReduceMax/ReduceMin over an empty axis: the kernel raised
    "test_reduce_log_sum_exp_empty_set": "reduce_log_sum_exp",
    "test_reduce_max_empty_set_bool": "reducemax",
    # Loop, Scan (TensorIterator), recurrent sequences
    "test_loop11": "loop",
    "test_scan9_sum": "scan",
    "test_scan_sum": "scan",
    "test_range_float_type_positive_delta_expanded": "rangeop",
    "test_gru_defaults": "gru",
    "test_lstm_defaults": "lstm",
    "test_rnn_seq_length": "rnn",
    # element types numpy lacks (ml_dtypes), attention
    "test_cast_FLOAT8E4M3FN_to_FLOAT": "cast",
    "test_cast_INT4_to_FLOAT": "cast",
    "test_castlike_FLOAT_to_BFLOAT16": "castlike",
    "test_dequantizelinear_int4": "dequantizelinear",
    "test_attention_4d": "attention",
}


@functools.cache
def _core():
    return ov.Core()


def _case(name: str, module: str):
    from onnx.backend.test.case import node

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        importlib.import_module(f"onnx.backend.test.case.node.{module}")
    found = [c for c in node._NodeTestCases if c.name == name]
    assert found, f"onnx generated no case {name}"
    return found[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_node_case_agrees_with_openvino(name: str) -> None:
    rec = script("onnx_audit").audit_case(_case(name, CASES[name]), _core())
    assert rec["category"] == "irlint-agrees", rec
    assert not rec.get("findings"), rec["findings"]
    assert not rec.get("half_ulps"), "these cases must agree within opcheck's tolerance"


def test_the_audit_categorises_what_openvino_gets_wrong() -> None:
    """A case OpenVINO's CPU plugin gets wrong is not counted against irlint (f32 inf saturates to
    FLT_MAX on Cast f32 -> f64); irlint, which keeps inf as ONNX expects, is still run and recorded."""
    rec = script("onnx_audit").audit_case(_case("test_cast_FLOAT_to_DOUBLE", "cast"), _core())
    assert rec["category"] == "ov-wrong"
    assert rec["irlint"]["category"] == "irlint-differs"
    assert rec["irlint"]["vs_onnx"] == "agrees"  # irlint keeps the infinities (docs/semantics.md)
