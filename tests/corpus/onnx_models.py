"""ONNX models built with `onnx.helper`, turned into IR at test time by `openvino.convert_model`.

They exercise what OpenVINO's ONNX front end writes that hand-built models rarely have: Loop and
Scan lowered to Loop/TensorIterator, If, dynamic dims and dynamic ranks (ports without `<dim>`),
and constants and Casts of every element type the front end accepts.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

OPSET = 21


def _h():
    import onnx
    from onnx import TensorProto, helper

    return onnx, TensorProto, helper


def _model(graph, opset: int = OPSET, check: bool = True):
    onnx, _, helper = _h()
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    if check:  # the checker wants a shape on every graph input and output (not so the front end)
        onnx.checker.check_model(m)
    return m


def loop_dynamic_trip():
    """A Loop whose trip count is a graph input (unknown statically), with a carried sum and a scan output."""
    _, T, helper = _h()
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Cast", ["iter"], ["iter_f"], to=T.FLOAT),
         helper.make_node("Mul", ["x", "iter_f"], ["xi"]),
         helper.make_node("Add", ["s_in", "xi"], ["s_out"]),
         helper.make_node("Relu", ["s_out"], ["scan_out"])],
        "body",
        [helper.make_tensor_value_info("iter", T.INT64, []),
         helper.make_tensor_value_info("cond_in", T.BOOL, []),
         helper.make_tensor_value_info("s_in", T.FLOAT, [None, 3])],
        [helper.make_tensor_value_info("cond_out", T.BOOL, []),
         helper.make_tensor_value_info("s_out", T.FLOAT, [None, 3]),
         helper.make_tensor_value_info("scan_out", T.FLOAT, [None, 3])],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M", "cond", "s0"], ["s_final", "scans"], body=body)],
        "g",
        [helper.make_tensor_value_info("M", T.INT64, []),
         helper.make_tensor_value_info("x", T.FLOAT, ["n", 3]),
         helper.make_tensor_value_info("s0", T.FLOAT, ["n", 3])],
        [helper.make_tensor_value_info("s_final", T.FLOAT, ["n", 3]),
         helper.make_tensor_value_info("scans", T.FLOAT, [None, "n", 3])],
        initializer=[helper.make_tensor("cond", T.BOOL, [], [True])],
    )
    return _model(graph)


def loop_while_condition():
    """A while-loop: the body computes its own condition (sum < 10) and the trip count is the maximum int64."""
    _, T, helper = _h()
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "one"], ["s_out"]),
         helper.make_node("ReduceSum", ["s_out"], ["total"], keepdims=0),
         helper.make_node("Less", ["total", "ten"], ["cond_out"])],
        "body",
        [helper.make_tensor_value_info("iter", T.INT64, []),
         helper.make_tensor_value_info("cond_in", T.BOOL, []),
         helper.make_tensor_value_info("s_in", T.FLOAT, [2])],
        [helper.make_tensor_value_info("cond_out", T.BOOL, []),
         helper.make_tensor_value_info("s_out", T.FLOAT, [2])],
        initializer=[helper.make_tensor("one", T.FLOAT, [2], [1.0, 1.0]),
                     helper.make_tensor("ten", T.FLOAT, [], [10.0])],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["", "cond", "s0"], ["s_final"], body=body)],
        "g",
        [helper.make_tensor_value_info("s0", T.FLOAT, [2])],
        [helper.make_tensor_value_info("s_final", T.FLOAT, [2])],
        initializer=[helper.make_tensor("cond", T.BOOL, [], [True])],
    )
    return _model(graph)


def loop_in_loop():
    """A Loop whose body holds another Loop (the inner trip count is the outer iteration number)."""
    _, T, helper = _h()
    inner = helper.make_graph(
        [helper.make_node("Identity", ["c_in"], ["c_out"]),
         helper.make_node("Add", ["a_in", "step"], ["a_out"])],
        "inner",
        [helper.make_tensor_value_info("j", T.INT64, []),
         helper.make_tensor_value_info("c_in", T.BOOL, []),
         helper.make_tensor_value_info("a_in", T.FLOAT, [2])],
        [helper.make_tensor_value_info("c_out", T.BOOL, []),
         helper.make_tensor_value_info("a_out", T.FLOAT, [2])],
        initializer=[helper.make_tensor("step", T.FLOAT, [2], [0.5, 1.0])],
    )
    outer = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Loop", ["i", "c_true", "s_in"], ["s_out"], body=inner)],
        "outer",
        [helper.make_tensor_value_info("i", T.INT64, []),
         helper.make_tensor_value_info("cond_in", T.BOOL, []),
         helper.make_tensor_value_info("s_in", T.FLOAT, [2])],
        [helper.make_tensor_value_info("cond_out", T.BOOL, []),
         helper.make_tensor_value_info("s_out", T.FLOAT, [2])],
        initializer=[helper.make_tensor("c_true", T.BOOL, [], [True])],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M", "cond", "s0"], ["s_final"], body=outer)],
        "g",
        [helper.make_tensor_value_info("s0", T.FLOAT, [2])],
        [helper.make_tensor_value_info("s_final", T.FLOAT, [2])],
        initializer=[helper.make_tensor("M", T.INT64, [], [4]),
                     helper.make_tensor("cond", T.BOOL, [], [True])],
    )
    return _model(graph)


def scan_two_inputs_axis1():
    """A Scan over axis 1 of two inputs (one reversed) with two states and two scan outputs (a TensorIterator)."""
    _, T, helper = _h()
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "a_t"], ["s1"]),
         helper.make_node("Mul", ["s1", "b_t"], ["s_out"]),
         helper.make_node("Max", ["m_in", "a_t"], ["m_out"]),
         helper.make_node("Identity", ["s_out"], ["y_t"]),
         helper.make_node("Tanh", ["m_out"], ["z_t"])],
        "body",
        [helper.make_tensor_value_info("s_in", T.FLOAT, [2]),
         helper.make_tensor_value_info("m_in", T.FLOAT, [2]),
         helper.make_tensor_value_info("a_t", T.FLOAT, [2]),
         helper.make_tensor_value_info("b_t", T.FLOAT, [2])],
        [helper.make_tensor_value_info("s_out", T.FLOAT, [2]),
         helper.make_tensor_value_info("m_out", T.FLOAT, [2]),
         helper.make_tensor_value_info("y_t", T.FLOAT, [2]),
         helper.make_tensor_value_info("z_t", T.FLOAT, [2])],
    )
    graph = helper.make_graph(
        [helper.make_node("Scan", ["s0", "m0", "a", "b"], ["s_f", "m_f", "ys", "zs"], body=body, num_scan_inputs=2,
                          scan_input_axes=[1, 1], scan_input_directions=[0, 1], scan_output_axes=[0, 1],
                          scan_output_directions=[1, 0])],
        "g",
        [helper.make_tensor_value_info("s0", T.FLOAT, [2]),
         helper.make_tensor_value_info("m0", T.FLOAT, [2]),
         helper.make_tensor_value_info("a", T.FLOAT, [2, 5]),
         helper.make_tensor_value_info("b", T.FLOAT, [2, 5])],
        [helper.make_tensor_value_info("s_f", T.FLOAT, [2]),
         helper.make_tensor_value_info("m_f", T.FLOAT, [2]),
         helper.make_tensor_value_info("ys", T.FLOAT, [5, 2]),
         helper.make_tensor_value_info("zs", T.FLOAT, [2, 5])],
    )
    return _model(graph)


def loop_dynamic_rank_state():
    """A Loop carrying a state of unknown rank (ports without dims on the Loop and in its body)."""
    _, T, helper = _h()
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["s_in", "one"], ["s_out"]),
         helper.make_node("ReduceSum", ["s_out"], ["total"], keepdims=0)],
        "body",
        [helper.make_tensor_value_info("iter", T.INT64, []),
         helper.make_tensor_value_info("cond_in", T.BOOL, []),
         helper.make_tensor_value_info("s_in", T.FLOAT, None)],
        [helper.make_tensor_value_info("cond_out", T.BOOL, []),
         helper.make_tensor_value_info("s_out", T.FLOAT, None),
         helper.make_tensor_value_info("total", T.FLOAT, [])],
        initializer=[helper.make_tensor("one", T.FLOAT, [], [1.0])],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M", "cond", "s0"], ["s_final", "totals"], body=body)],
        "g",
        [helper.make_tensor_value_info("s0", T.FLOAT, None)],
        [helper.make_tensor_value_info("s_final", T.FLOAT, None),
         helper.make_tensor_value_info("totals", T.FLOAT, [3])],
        initializer=[helper.make_tensor("M", T.INT64, [], [3]), helper.make_tensor("cond", T.BOOL, [], [True])],
    )
    return _model(graph, check=False)


def if_branches():
    """An If choosing between two branches of different ops on a runtime boolean."""
    _, T, helper = _h()
    then = helper.make_graph([helper.make_node("Add", ["x", "x"], ["y_then"])], "then", [],
                             [helper.make_tensor_value_info("y_then", T.FLOAT, [2, 3])])
    other = helper.make_graph([helper.make_node("Neg", ["x"], ["y_else"])], "else", [],
                              [helper.make_tensor_value_info("y_else", T.FLOAT, [2, 3])])
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other),
         helper.make_node("Relu", ["y"], ["z"])],
        "g",
        [helper.make_tensor_value_info("c", T.BOOL, []),
         helper.make_tensor_value_info("x", T.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("z", T.FLOAT, [2, 3])],
    )
    return _model(graph)


def dynamic_rank():
    """Inputs of unknown rank and ops whose axes are inputs: OpenVINO writes their ports without `<dim>`."""
    _, T, helper = _h()
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]),
         helper.make_node("Unsqueeze", ["r", "axes"], ["u"]),
         helper.make_node("ReduceSum", ["r", "axes"], ["s"], keepdims=1),
         helper.make_node("ReduceMax", ["r", "axes"], ["m"], keepdims=0),
         helper.make_node("Squeeze", ["u", "axes"], ["q"]),
         helper.make_node("Add", ["q", "bias"], ["y"]),
         helper.make_node("Shape", ["y"], ["shape"]),
         helper.make_node("Reshape", ["r", "shape"], ["back"]),
         helper.make_node("Unsqueeze", ["fixed", "axes"], ["fu"]),
         helper.make_node("ReduceMean", ["fixed", "axes"], ["fm"], keepdims=1)],
        "g",
        [helper.make_tensor_value_info("x", T.FLOAT, None),
         helper.make_tensor_value_info("axes", T.INT64, [1]),
         helper.make_tensor_value_info("fixed", T.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info(n, T.FLOAT, None) for n in ("u", "s", "m", "y", "back", "fu", "fm")],
        initializer=[helper.make_tensor("bias", T.FLOAT, [], [0.5])],
    )
    return _model(graph, check=False)


def scalars():
    """Real scalars next to dynamic ranks: a scalar input, a scalar constant, a scalar reduction."""
    _, T, helper = _h()
    graph = helper.make_graph(
        [helper.make_node("Mul", ["s", "k"], ["sk"]),
         helper.make_node("ReduceSum", ["v"], ["total"], keepdims=0),
         helper.make_node("Add", ["total", "sk"], ["y"]),
         helper.make_node("Mul", ["v", "y"], ["vy"])],
        "g",
        [helper.make_tensor_value_info("s", T.FLOAT, []),
         helper.make_tensor_value_info("v", T.FLOAT, [4])],
        [helper.make_tensor_value_info("y", T.FLOAT, []), helper.make_tensor_value_info("vy", T.FLOAT, [4])],
        initializer=[helper.make_tensor("k", T.FLOAT, [], [3.0])],
    )
    return _model(graph)


# (ONNX type, numpy values) of constants the ONNX front end turns into Consts of each element type
_CONST_TYPES = (
    ("FLOAT", [1.5, -2.0]), ("DOUBLE", [1.5, -2.0]), ("FLOAT16", [1.5, -2.0]), ("BFLOAT16", [1.5, -2.0]),
    ("INT8", [-3, 4]), ("INT16", [-3, 4]), ("INT32", [-3, 4]), ("INT64", [-3, 4]),
    ("UINT8", [3, 4]), ("UINT16", [3, 4]), ("UINT32", [3, 4]), ("UINT64", [3, 4]), ("BOOL", [True, False]),
    ("FLOAT8E4M3FN", [1.5, -2.0]), ("FLOAT8E5M2", [1.5, -2.0]), ("INT4", [-3, 4]), ("UINT4", [3, 4]),
    ("FLOAT4E2M1", [1.5, -2.0]), ("FLOAT8E8M0", [0.5, 2.0]),
)


def element_types():
    """An input of each element type cast to f32 and summed, and back through bf16 and f8 Casts
    (Parameters and Converts of every ONNX type; the front end folds Casts of constants away)."""
    _, T, helper = _h()
    nodes, inputs = [], [helper.make_tensor_value_info("x", T.FLOAT, [2])]
    acc = "x"
    for i, (name, _values) in enumerate(_CONST_TYPES):
        inputs.append(helper.make_tensor_value_info(f"in{i}", getattr(T, name), [2]))
        nodes.append(helper.make_node("Cast", [f"in{i}"], [f"f{i}"], to=T.FLOAT))
        nodes.append(helper.make_node("Add", [acc, f"f{i}"], [f"a{i}"]))
        acc = f"a{i}"
    for i, name in enumerate(("BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E5M2", "FLOAT16")):
        nodes.append(helper.make_node("Cast", [acc], [f"as{i}"], to=getattr(T, name)))
        nodes.append(helper.make_node("Cast", [f"as{i}"], [f"back{i}"], to=T.FLOAT))
        acc = f"back{i}"
    nodes.append(helper.make_node("Identity", [acc], ["y"]))
    nodes.append(helper.make_node("Identity", ["text"], ["text_out"]))
    inputs.append(helper.make_tensor_value_info("text", T.STRING, [3]))
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", T.FLOAT, [2]),
                                                    helper.make_tensor_value_info("text_out", T.STRING, [3])])
    return _model(graph)


def dequantize_weights():
    """Weights stored as int4/uint4/int8/f8 constants and dequantized (DequantizeLinear): OpenVINO keeps
    them as low-precision Consts followed by Convert (its weight-compression pattern)."""
    _, T, helper = _h()
    nodes, inits = [], []
    acc = "x"
    rng = np.random.default_rng(0)
    for i, name in enumerate(("INT4", "UINT4", "INT8", "UINT8", "FLOAT8E4M3FN", "FLOAT8E5M2")):
        lo, hi = {"INT4": (-8, 8), "UINT4": (0, 16), "INT8": (-128, 128), "UINT8": (0, 256)}.get(name, (-4, 4))
        vals = rng.integers(lo, hi, size=(4, 6)).tolist()
        inits.append(helper.make_tensor(f"w{i}", getattr(T, name), [4, 6], np.asarray(vals).reshape(-1).tolist()))
        inits.append(helper.make_tensor(f"sc{i}", T.FLOAT, [], [0.25]))
        nodes.append(helper.make_node("DequantizeLinear", [f"w{i}", f"sc{i}"], [f"d{i}"]))
        nodes.append(helper.make_node("MatMul", [acc if i == 0 else f"h{i - 1}", f"d{i}"], [f"m{i}"]))
        nodes.append(helper.make_node("Slice", [f"m{i}", "st", "en", "ax"], [f"h{i}"]))
    inits += [helper.make_tensor("st", T.INT64, [1], [0]), helper.make_tensor("en", T.INT64, [1], [4]),
              helper.make_tensor("ax", T.INT64, [1], [1])]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", T.FLOAT, [1, 4])],
        [helper.make_tensor_value_info(f"h{len(inits) // 2 - 2}", T.FLOAT, [1, 4])], initializer=inits)
    return _model(graph, check=False)


def prelu_broadcast():
    """PRelu with a slope of shape [4] on an input [1,3,4]: ONNX broadcasts it numpy-style (over the last axis)."""
    _, T, helper = _h()
    graph = helper.make_graph(
        [helper.make_node("PRelu", ["x", "slope"], ["y"])], "g",
        [helper.make_tensor_value_info("x", T.FLOAT, [1, 3, 4])],
        [helper.make_tensor_value_info("y", T.FLOAT, [1, 3, 4])],
        initializer=[helper.make_tensor("slope", T.FLOAT, [4], [0.1, 0.2, 0.3, 0.4])])
    return _model(graph)


ONNX_MODELS: dict[str, Callable] = {
    f.__name__: f for f in (
        loop_dynamic_trip, loop_while_condition, loop_in_loop, loop_dynamic_rank_state, scan_two_inputs_axis1,
        if_branches, dynamic_rank, scalars, element_types, dequantize_weights, prelu_broadcast,
    )
}


def to_ir(model, tmp, name: str):
    """Save the ONNX model, convert it with openvino and write the IR; returns the .xml path."""
    import onnx
    import openvino as ov

    src = tmp / f"{name}.onnx"
    onnx.save(model, str(src))
    xml = tmp / f"{name}.xml"
    ov.save_model(ov.convert_model(str(src)), str(xml), compress_to_fp16=False)
    return xml


__all__ = ["ONNX_MODELS", "np", "to_ir"]
