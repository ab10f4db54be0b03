"""What OpenVINO's IR reader does with the reader fixtures (tests/rules/make_reader_fixtures.py),
measured in a child process: the verdicts docs/rules-openvino.md quotes for IR004, IR006, IR007,
IR008, IR009, IR010, IR011, IR012, G108, G109, G110, G111, PM413, LP705, T214, T215 and W304. Skipped
when openvino is not installed."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.ir.opsets import LAST_OPSET

pytestmark = pytest.mark.skipif(importlib.util.find_spec("openvino") is None, reason="openvino is not installed")

FIXTURES = Path(__file__).parents[1] / "rules" / "fixtures"

# read_model, compile_model (CPU, f32), one inference on inputs 0, 1, 2 ... (input k offset by 100 k);
# prints one JSON line: the stage that failed and its message, or the outputs and the inputs used
CHILD = textwrap.dedent("""
    import json, sys
    import numpy as np
    import openvino as ov

    def done(**kw):
        print(json.dumps(kw))
        sys.exit()

    core = ov.Core()
    try:
        model = core.read_model(sys.argv[1])
    except Exception as e:
        done(stage="read", message=str(e))
    try:
        compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    except Exception as e:
        done(stage="compile", message=str(e))
    inputs = {}
    for k, port in enumerate(compiled.inputs):
        shape = list(port.get_shape())
        n = int(np.prod(shape)) if shape else 1
        inputs[port.get_any_name()] = (np.arange(n).reshape(shape) + 100 * k).astype(port.get_element_type().to_dtype())
    try:
        got = compiled(inputs)
    except Exception as e:
        done(stage="infer", message=str(e))
    done(stage="ran", outputs={o.get_any_name(): np.asarray(v).tolist() for o, v in got.items()},
         inputs={k: v.tolist() for k, v in inputs.items()}, ops=len(model.get_ordered_ops()))
""")


def openvino_verdict(name: str) -> dict:
    """What openvino does with a fixture, in a child process (a crash there fails only this test)."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(FIXTURES / name)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


REFUSED = [  # (fixture, the stage OpenVINO refuses it at, a part of its message)
    ("IR006/fail-parameter-no-data.xml", "read", "Layer data must be defined for: opset1::Parameter x"),
    ("IR006/fail-const-no-data.xml", "read", "No attrtibutes defined for Const op!"),
    ("IR006/fail-const-no-offset.xml", "read", "node <data> is missing mandatory attribute: offset"),
    ("IR006/fail-no-version.xml", "read", "node <layer> is missing mandatory attribute: version"),
    ("IR006/fail-no-name.xml", "read", "node <layer> is missing mandatory attribute: name"),
    ("IR006/fail-empty-type.xml", "read", "Opset opset1 doesn't contain the operation with type: \n"),
    ("IR007/fail.xml", "read", "from unsupported opset: opset999"),
    ("IR007/fail-opset0.xml", "read", "from unsupported opset: opset0"),
    ("IR007/fail-empty.xml", "read", "Cannot create Parameter layer x id:0 from unsupported opset: \n"),
    ("IR007/fail-experimental.xml", "read", "from unsupported opset: experimental"),
    ("IR009/fail.xml", "read", "Opset opset1 doesn't contain the operation with type: Loop"),
    ("IR009/fail-opset17.xml", "read", "Opset opset17 doesn't contain the operation with type: Subtract"),
    ("IR009/fail-no-such-op.xml", "read", "Opset opset1 doesn't contain the operation with type: FancySubtract"),
    ("IR004/fail-question-mark.xml", "read", "dimension (?) in node dim must be greater or equal to -1"),
    ("G109/fail-tensor-iterator.xml", "read", "Requested output shape [1,4] is incompatible with input shape"),
    ("G111/fail.xml", "read", "Argument has 2 outputs (1 expected)"),
    ("G111/fail-body.xml", "read", "Argument has 2 outputs (1 expected)"),
    ("G111/fail-consumed.xml", "compile", "Result node with name 'z' has incorrect number of output edges"),
    ("PM413/fail.xml", "compile",
     'Invalid "axis" value in an iteration component: -2, dimensions number = 3 (out of range)'),
    ("LP705/fail-axis.xml", "read", "Number of inputs must be the same as number of input descriptions"),
    ("IR004/fail-negative-id.xml", "read", "which is not an unsigned 64 bit integer"),
    ("IR006/fail-output-precision.xml", "read", "node <port> is missing mandatory attribute: precision"),
    ("T214/fail-no-type.xml", "compile", "Memory has not been allocated"),
    ("T215/fail.xml", "compile", "unsupported src_prc: dynamic"),
    ("IR010/fail.xml", "read", "multiple rt_info attributes are detected: fused_names"),
    ("IR010/fail-port.xml", "read", "multiple rt_info attributes are detected: fused_names"),
    ("IR011/fail.xml", "read", "pre-process name ref 'nope' refers to un-existing input"),
    ("IR011/fail-no-value.xml", "read", "mean should have at least one of the following attribute: value, size"),
    ("IR011/fail-channels.xml", "read", "Number of mean values (1) is not equal to number of channels (3)"),
    ("IR011/fail-blob-size.xml", "read", "mean blob size mismatch"),
    ("W304/fail.xml", "read", "begin offset greater than end offset"),
    ("W304/fail-header.xml", "read", "header exceeds provided buffer size"),
    ("W304/fail-past-end.xml", "read", "string offset exceeds buffer bounds"),
]


@pytest.mark.parametrize("name,stage,message", REFUSED, ids=[r[0] for r in REFUSED])
def test_openvino_refuses(name: str, stage: str, message: str) -> None:
    got = openvino_verdict(name)
    assert got["stage"] == stage, got
    assert message in got["message"] + "\n", got["message"]


def _irlint_outputs(name: str, inputs: dict) -> dict[str, np.ndarray]:
    model = irlint.load(str(FIXTURES / name))
    return irlint.run(model, {k: np.asarray(v, np.float32) for k, v in inputs.items()})


@pytest.mark.parametrize("name", ["G108/fail.xml", "IR008/fail.xml", "LP705/pass-range-ignored.xml",
                                  "IR007/pass-experimental.xml", "IR010/pass-unknown-name.xml", "T217/fail.xml"])
def test_openvino_runs_what_irlint_runs(name: str) -> None:
    """Accepted files (warnings or nothing): OpenVINO computes what irlint computes on the same inputs.
    G108: both take the Subtract's operands by position (port 1 first); IR008: the dim's text after
    its integer changes nothing; LP705: start/end/stride/part_size without an axis are ignored."""
    got = openvino_verdict(name)
    assert got["stage"] == "ran", got
    ours = _irlint_outputs(name, got["inputs"])
    assert set(ours) == set(got["outputs"])
    for k, v in got["outputs"].items():
        np.testing.assert_allclose(ours[k], np.asarray(v, ours[k].dtype), rtol=1e-5, atol=1e-5)
    if name.startswith("G108"):  # and that is not what the file's port ids say: (x + 10) - y
        x, y = (np.asarray(got["inputs"][n], np.float32) for n in ("x", "y"))
        np.testing.assert_allclose(ours["z"], y - (x + 10))


@pytest.mark.parametrize("name", ["G109/fail.xml", "G109/fail-outputs.xml"])
def test_openvino_runs_another_model_when_loop_ports_are_not_positions(name: str) -> None:
    """The Loop read, compiled and run, but not as its port_map says (the valid model on the same inputs)."""
    got, valid = openvino_verdict(name), openvino_verdict("G109/pass.xml")
    assert got["stage"] == valid["stage"] == "ran"
    assert got["inputs"] == valid["inputs"]
    assert got["outputs"] != valid["outputs"]
    if name.endswith("outputs.xml"):  # the two outputs trade values
        assert got["outputs"]["acc"] == valid["outputs"]["history"]
        assert got["outputs"]["history"] == valid["outputs"]["acc"]


def test_a_result_without_type_is_dropped() -> None:
    """An empty type on the only Result: OpenVINO reads a model without outputs (and without the
    layers that fed it), no message."""
    got = openvino_verdict("IR006/fail-empty-type-result.xml")
    assert got["stage"] == "ran" and got["outputs"] == {}
    assert got["ops"] == 2  # the two Parameters


def test_the_last_opset() -> None:
    """irlint's list of opsets ends where openvino's does."""
    code = ("import importlib.util as u, openvino; "
            f"print(u.find_spec('openvino.opset{LAST_OPSET}') is not None, "
            f"u.find_spec('openvino.opset{LAST_OPSET + 1}') is not None)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["True", "False"], done.stderr[-2000:]


def test_an_op_irlint_lacks_is_read() -> None:
    """G110's fixture (an ErfInv of opset17 in a TensorIterator body) is a model OpenVINO reads."""
    got = openvino_verdict("G110/fail.xml")
    assert got["stage"] != "read", got


def test_the_opset_table_is_current() -> None:
    """irlint/ir/opset_members.py is what scripts/opset_members.py makes of the installed openvino."""
    from tests.scripts import script

    assert script("opset_members").render() == (Path(irlint.__file__).parent / "ir" / "opset_members.py").read_text()


def test_a_loop_keeps_the_last_part_of_a_negative_axis_concatenation() -> None:
    """PM413 on a Loop: the CPU plugin's output holds the last iteration's [1,4] part, not the [n,4] of all."""
    got, valid = openvino_verdict("PM413/fail-loop.xml"), openvino_verdict("G109/pass.xml")  # the same Loop, axis 0
    assert got["stage"] == valid["stage"] == "ran"
    assert len(valid["outputs"]["history"]) > 1
    assert got["outputs"]["history"] == valid["outputs"]["history"][-1:]
    assert got["outputs"]["acc"] == valid["outputs"]["acc"]


def test_openvino_subtracts_the_pre_process_means() -> None:
    """IR012: OpenVINO computes on x minus the channel means (1, 2, 3 on dim 1); irlint, which does not
    apply <pre-process>, computes the same when given x minus the means."""
    got = openvino_verdict("IR012/fail.xml")
    assert got["stage"] == "ran", got
    inputs = {k: np.asarray(v, np.float32) for k, v in got["inputs"].items()}
    inputs["x"] = inputs["x"] - np.array([1, 2, 3], np.float32)
    ours = _irlint_outputs("IR012/fail.xml", inputs)
    for k, v in got["outputs"].items():
        np.testing.assert_allclose(ours[k], np.asarray(v, np.float32), rtol=1e-5, atol=1e-5)
    unshifted = _irlint_outputs("IR012/fail.xml", {k: np.asarray(v, np.float32) for k, v in got["inputs"].items()})
    assert not np.allclose(unshifted["z"], np.asarray(got["outputs"]["z"], np.float32))


@pytest.mark.parametrize("name,strings", [("W304/pass.xml", ["ab", "cde"]),
                                          ("W304/pass-first-offset.xml", ["b", "cde"])])
def test_openvino_reads_packed_strings(name: str, strings: list[str]) -> None:
    """W304's valid layouts: offsets need not start at 0 (the first string then starts later)."""
    got = openvino_verdict(name)
    assert got["stage"] == "ran", got
    assert list(got["outputs"].values()) == [strings]


def test_a_string_count_below_the_shape_reads_past_the_const() -> None:
    """W304/fail-count.xml counts 1 string for a shape of 2: OpenVINO reads it; compiling fails
    ("std::bad_alloc") or the second string comes from memory past the Const's bytes."""
    got = openvino_verdict("W304/fail-count.xml")
    if got["stage"] == "compile":
        assert "bad_alloc" in got["message"]
    else:
        assert got["stage"] == "ran" and list(got["outputs"].values()) != [["ab", "cde"]], got
