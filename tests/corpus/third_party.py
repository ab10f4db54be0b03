"""The third-party models of tests/corpus/thirdparty/ (tests/corpus/README.md): where each comes from, what
irlint must find in it, the weights its test writes, the inputs it runs on and what OpenVINO does with it.

Every file is copied unchanged from OpenVINO's repository (Apache-2.0). Most of its test IRs come without a
.bin (the C++ tests build the weights in memory), so the .bin is written here as the XML's `offset`/`size`
lay it out: the integer Consts with the values OpenVINO's test writes, the float Consts seeded random
numbers. A finding irlint gives that OpenVINO contradicts is listed as `disputed` with the reason; its test
is marked xfail (strict), so that it fails once irlint is corrected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lxml import etree

HERE = Path(__file__).parent / "thirdparty"
OPENVINO = "openvinotoolkit/openvino"
_FLOAT = {"f32": np.float32, "f16": np.float16}


def laid_out(xml: Path, size: int, ints: Mapping[int, list[int]], seed: int = 0) -> bytes:
    """A .bin of `size` bytes for `xml`: float Consts seeded random (scale 0.1), then the i64 values `ints`
    (offset -> values) written over them; every other byte zero."""
    rng = np.random.default_rng(seed)
    buf = bytearray(size)
    for layer in etree.fromstring(xml.read_bytes().lstrip()).iter("layer"):  # lstrip: ti_gru_cell.xml
        data = layer.find("data")
        if layer.get("type") != "Const" or data is None or data.get("element_type") not in _FLOAT:
            continue
        off, n, dtype = int(data.get("offset")), int(data.get("size")), _FLOAT[data.get("element_type")]
        buf[off : off + n] = (rng.standard_normal(n // np.dtype(dtype).itemsize) * 0.1).astype(dtype).tobytes()
    for off, values in ints.items():
        raw = np.asarray(values, np.int64).tobytes()
        buf[off : off + len(raw)] = raw
    return bytes(buf)


def loop_2d_add_bin(_xml: Path) -> bytes:
    """loop_2d_add.xml's weights (not published with it): trip count 3, condition true, the scalar added after
    the loop 0, b = [1, 1], Unsqueeze axis 0 — the values of OpenVINO's ONNX test of that model."""
    return (
        np.int64(3).tobytes()
        + b"\x01"
        + np.float32(0).tobytes()
        + np.ones(2, np.float32).tobytes()
        + np.int64(0).tobytes()
    )


def zeros(n: int) -> Callable[[Path], bytes]:
    """The OpenVINO test's own buffer: `n` zero bytes (in the loop tests b and the Unsqueeze axis share offset 0)."""
    return lambda _xml: bytes(n)


def if_consts(_xml: Path) -> bytes:
    """Squeeze axis 0 (the one axis that fits [1,0]), then the two branch constants 2.5 and -1.5."""
    return np.int64(0).tobytes() + np.float32(2.5).tobytes() + np.float32(-1.5).tobytes()


@dataclass(frozen=True)
class IR:
    """A third-party IR: `defects` are findings (code, line) that are real defects of the file, `disputed`
    findings irlint gives that OpenVINO contradicts. `inputs` fixes some model inputs (the others are random);
    `refused` is OpenVINO's refusal, (stage, message regex), stage "compile" or "infer"."""

    source: str
    defects: frozenset[tuple[str, int]] = frozenset()
    disputed: Mapping[tuple[str, int], str] = field(default_factory=dict)
    weights: Callable[[Path], bytes] | None = None
    inputs: Mapping[str, object] = field(default_factory=dict)
    refused: tuple[str, str] | None = None


_TI_DESER = "src/frontends/ir/tests/tensor_iterator_deserialization.cpp"

IRS: dict[str, IR] = {
    "ti_merged_input.xml": IR(f"{_TI_DESER} @08bdbdf, TensorIteratorMergedInput"),
    # the body Parameter fed by a sliced entry is also a back-edge target; OpenVINO ignores the back edge
    "ti_sliced_input.xml": IR(f"{_TI_DESER} @08bdbdf, TensorIteratorSlisedInput", frozenset({("BE504", 33)})),
    # the body Unsqueeze declares the concatenated shape [3,1,2]; it computes [1,1,2] (OpenVINO re-infers it)
    "loop_2d_add.xml": IR(
        "src/core/tests/models/ir/loop_2d_add.xml @7495949", frozenset({("T211", 136)}), weights=loop_2d_add_bin
    ),
    # the Loop declares its concatenated output [1], the Result after it [1,1,1,1]; OpenVINO ignores both
    "loop_yolo_arange.xml": IR(
        f"{_TI_DESER} @26b47f0, loop1",
        frozenset({("T202", 143)}),
        weights=zeros(8),
        inputs={"TFNodes/yolo_evaluation_layer_1/arange_4__77_trip_cnt/placeholder_port_0": np.float32(3)},
    ),
    # the same Unsqueeze as loop_2d_add.xml
    "loop_2d_add_inputs.xml": IR(
        f"{_TI_DESER} @26b47f0, loop2",
        frozenset({("T211", 135)}),
        weights=zeros(8),
        inputs={"trip_count/Output_0/Data__const": np.array([3], np.int64)},
    ),
    # the i64 trip count feeds the boolean body condition Parameter (port_map input 0 -> body layer 0)
    "loop_port1_unconnected.xml": IR(
        f"{_TI_DESER} @26b47f0, loop_external_port1_is_not_connected",
        frozenset({("SL605", 61), ("LP704", 67), ("T211", 135)}),
        weights=zeros(8),
        inputs={"trip_count/Output_0/Data__const": np.array([3], np.int64)},
        refused=("infer", r"mem->getDataType\(\) == memory::data_type::u8"),
    ),
    "ti_lstm_resnet.xml": IR(
        f"{_TI_DESER} @26b47f0, tensor_iterator_resnet_opset4",
        weights=lambda xml: laid_out(xml, 8396840, {0: [1, 512], 8396816: [1, 1, 512]}),
    ),
    "ti_lstm_reverse.xml": IR(
        f"{_TI_DESER} @26b47f0, tensor_iterator_negative_stride_opset4",
        weights=lambda xml: laid_out(xml, 3149864, {0: [1, 512], 3149840: [1, 1, 256]}),
    ),
    # "    <?xml": an XML declaration after white space is not well-formed XML; OpenVINO's parser takes it
    "ti_gru_cell.xml": IR(
        f"{_TI_DESER} @26b47f0, test1", frozenset({("IR001", 1)}), weights=lambda xml: laid_out(xml, 213512, {0: [1]})
    ),
    "ti_lstm_unordered_body.xml": IR(
        "src/core/tests/pass/serialization/tensor_iterator.cpp @5c76ae1, TiResnet",
        weights=lambda xml: laid_out(xml, 8396840, {0: [1, 512], 8396816: [1, 1, 512]}),
    ),
    # the If condition is Squeeze(Less(x, y)) of [1,0]: shape [0], no value; the CPU plugin refuses it. The
    # branch output entries name port 0, the If's output is port 1: OpenVINO (and irlint) give them output 1
    # by the order of their ids, so the output is the branches' scalar
    "if_body_without_parameters.xml": IR(
        "src/core/tests/models/ir/if_body_without_parameters.xml @7495949",
        frozenset({("IF805", 67), ("IF801", 75), ("IF801", 78)}),
        weights=if_consts,
        refused=("compile", "number of values in the If condition constant"),
    ),
}


@dataclass(frozen=True)
class Onnx:
    """A third-party ONNX model (thirdparty/onnx/NAME.prototxt), converted by OpenVINO at test time: `codes`
    are the finding codes its IR must get (real properties of the converted IR), `disputed` codes irlint
    should give and does not (or gives and should not), with the reason; `irlint_refuses`: irlint's run
    stops with this RUN- finding."""

    source: str
    codes: frozenset[str] = frozenset()
    disputed: Mapping[str, str] = field(default_factory=dict)
    inputs: tuple[Mapping[str, object], ...] = ({},)
    refused: tuple[str, str] | None = None
    irlint_refuses: tuple[str, str] | None = None  # (the RUN- code irlint stops with, why)


_ONNX_CF = "src/frontends/onnx/tests/models/controlflow"
ONNX: dict[str, Onnx] = {
    "if_inside_loop": Onnx(f"{_ONNX_CF}/if_inside_loop.prototxt @7495949"),
    "if_inside_if_inside_loop": Onnx(f"{_ONNX_CF}/if_inside_if_inside_loop.prototxt @7495949"),
    "if_branches_with_multiple_outputs": Onnx(
        f"{_ONNX_CF}/if_branches_with_multiple_outputs.prototxt @7495949",
        inputs=({"condition": np.array([True])}, {"condition": np.array([False])}),
    ),
    "loop_2d_add_cond_and_trip_count_as_inputs": Onnx(
        f"{_ONNX_CF}/loop_2d_add_cond_and_trip_count_as_inputs.prototxt @aea51a8",
        codes=frozenset({"T213"}),  # the body's current_iteration Parameter 'i' has shape="...", which OpenVINO keeps
        refused=("compile", "Parameter operation with dynamic rank"),
    ),
    "loop_2d_add_no_identity_termination_cond_false": Onnx(
        f"{_ONNX_CF}/loop_2d_add_no_identity_termination_cond_false.prototxt @2b1fc88"
    ),
    "loop_2d_add_trip_count_max_int": Onnx(f"{_ONNX_CF}/loop_2d_add_trip_count_max_int.prototxt @738c5b8"),
    "loop_add_node_from_parent_scope_used_in_parent_and_in_body": Onnx(
        f"{_ONNX_CF}/loop_add_node_from_parent_scope_used_in_parent_and_in_body.prototxt @aea51a8"
    ),
    "loop_concat_growing_merged_dim": Onnx(f"{_ONNX_CF}/loop_concat_growing_merged_dim.prototxt @139288f"),
    # the concatenated output's parts grow ([2], [3], ...): the CPU plugin returns uninitialised memory for it
    "loop_concat_values": Onnx(
        f"{_ONNX_CF}/loop_concat_values.prototxt @d2129f1",
        inputs=({"iter_count_init": np.array(4, np.int64), "cond_init": np.array(True), "seq_init": np.array([7])},),
        irlint_refuses=("RUN-CONCAT", "the parts of the concatenated output grow each iteration ([2], [3], ...): "
                        "the spec gives no value; the CPU plugin returns uninitialised memory for that output"),
    ),
    "loop_if_kv_erase_insert": Onnx(
        f"{_ONNX_CF}/loop_if_kv_erase_insert.prototxt @4b79ea4",
        inputs=({"trip_count": np.array(5, np.int64), "cond_init": np.array(True)},),
    ),
    # OpenVINO's ONNX front end drops pow_init (the body never reads pow_in): zero iterations leave
    # pow_final without a value, which LP710 says
    "loop_pow": Onnx(
        f"{_ONNX_CF}/loop_pow.prototxt @aaeda4c",
        frozenset({"LP710"}),
        inputs=({"trip_count": np.array([4]), "pow_init": np.array([7])},),
    ),
    "loop_scalars_add": Onnx(f"{_ONNX_CF}/loop_scalars_add.prototxt @6503649"),
    "loop_with_unsorted_graph": Onnx(f"{_ONNX_CF}/loop_with_unsorted_graph.prototxt @483b56b"),
    "scan_with_initializer_as_output": Onnx(f"{_ONNX_CF}/scan_with_initializer_as_output.prototxt @c69ad31"),
    # inputs of unknown rank: the CPU plugin compiles no Parameter or If of dynamic rank, as the warnings say
    "if_dynamic_inputs": Onnx(
        f"{_ONNX_CF}/if_dynamic_inputs.prototxt @92eaa7e",
        frozenset({"T213", "IF807"}),
        refused=("compile", "Parameter operation with dynamic rank"),
    ),
    # the front end lowers the sequence state to tensors and leaves two body Results nothing reads
    "sal_sequence_length_runtime_gate": Onnx(
        f"{_ONNX_CF}/sal_sequence_length_runtime_gate.prototxt @7f363b7",
        frozenset({"PM409"}),
        inputs=({"trip_count": np.array(3, np.int64), "cond_init": np.array(True)},),
    ),
}


def nested_if_xml(depth: int) -> str:
    """The IR of OpenVINO's nested-If reader test (src/frontends/ir/tests/if_deserialization.cpp @98c3a06,
    which builds it in C++; rebuilt here from its description): an If whose then-branch holds the next If,
    `depth` deep, each condition a Const true (the .bin: one byte 1), each else-branch Parameter -> Result."""
    ids = iter(range(1, 6 * depth + 2))
    port = '<port id="0" precision="FP32"><dim>1</dim></port>'

    def param(i: int) -> str:
        return (
            f'<layer id="{i}" name="p{i}" type="Parameter" version="opset1">'
            f'<data element_type="f32" shape="1"/><output>{port}</output></layer>'
        )

    def result(i: int) -> str:
        return f'<layer id="{i}" name="r{i}" type="Result" version="opset1"><input>{port}</input></layer>'

    def edge(a: int, pa: int, b: int, pb: int) -> str:
        return f'<edge from-layer="{a}" from-port="{pa}" to-layer="{b}" to-port="{pb}"/>'

    inner: tuple[str, str, int] | None = None  # (layers, edges, If id) of the level below
    levels = []
    for _ in range(depth):
        levels.append(tuple(next(ids) for _ in range(6)))
    for cond, iff, tp, tr, ep, er in reversed(levels):
        then_edges = (inner[1] + edge(tp, 0, inner[2], 1) + edge(inner[2], 2, tr, 0)) if inner else edge(tp, 0, tr, 0)
        layers = (
            f'<layer id="{cond}" name="c{cond}" type="Const" version="opset1"><data element_type="boolean" shape="" '
            f'offset="0" size="1"/><output><port id="0" precision="BOOL"/></output></layer>'
            f'<layer id="{iff}" name="if{iff}" type="If" version="opset8"><input><port id="0"/>'
            f'<port id="1"><dim>1</dim></port></input>'
            f'<output><port id="2" precision="FP32"><dim>1</dim></port></output>'
            f'<then_port_map><input external_port_id="1" internal_layer_id="{tp}"/>'
            f'<output external_port_id="2" internal_layer_id="{tr}"/></then_port_map>'
            f'<else_port_map><input external_port_id="1" internal_layer_id="{ep}"/>'
            f'<output external_port_id="2" internal_layer_id="{er}"/></else_port_map>'
            f"<then_body><layers>{param(tp)}{inner[0] if inner else ''}{result(tr)}</layers>"
            f"<edges>{then_edges}</edges></then_body>"
            f"<else_body><layers>{param(ep)}{result(er)}</layers>"
            f"<edges>{edge(ep, 0, er, 0)}</edges></else_body></layer>"
        )
        inner = (layers, edge(cond, 0, iff, 0), iff)
    res = next(ids)
    return (
        f'<?xml version="1.0"?>\n<net name="NestedIf" version="11"><layers>'
        f'<layer id="0" name="input" type="Parameter" version="opset1"><data element_type="f32" shape="1"/>'
        f"<output>{port}</output></layer>{inner[0]}"
        f'<layer id="{res}" name="output" type="Result" version="opset1"><input>{port}</input></layer></layers>'
        f"<edges>{edge(0, 0, inner[2], 1)}{inner[1]}{edge(inner[2], 2, res, 0)}</edges></net>\n"
    )
