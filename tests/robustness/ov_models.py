"""Small legal IRs written by OpenVINO's own API for the hostile-path suite."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def doubling_loop(path: Path) -> Path:
    """An unbounded Loop whose state doubles each iteration (Concat of the state with itself)."""
    import openvino as ov
    import openvino.opset8 as ops

    x = ops.parameter([1], np.float32, name="x")
    s = ops.parameter([-1], np.float32, name="s")
    grown = ops.concat([s, s], 0, name="grow")
    body = ov.Model([ops.result(grown), ops.result(ops.constant(np.array(True)))], [s], "body")
    loop = ops.loop(ops.constant(np.array(-1, np.int64)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(s, x.output(0), grown.output(0))
    out = loop.get_iter_value(grown.output(0), -1)
    ov.save_model(ov.Model([ops.result(out)], [x], "doubling"), str(path))
    return path


def zero_trip_loop(path: Path, merged: bool) -> Path:
    """A legal Loop with a trip count of 0 and a concatenated output; OpenVINO's CPU plugin dies of
    SIGFPE compiling it (merged=False: a sliced input; True: a merged one)."""
    import openvino as ov
    import openvino.opset8 as ops

    x = ops.parameter([1, 2] if merged else [3, 2], np.float32, name="x")
    bx = ops.parameter([1, 2], np.float32, name="bx")
    add = ops.add(bx, ops.constant(np.ones((1, 2), np.float32)))
    body = ov.Model([ops.result(add), ops.result(ops.constant(np.array(True)))], [bx], "body")
    loop = ops.loop(ops.constant(np.array(0, np.int64)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 1])
    if merged:
        loop.set_merged_input(bx, x.output(0), add.output(0))
    else:
        loop.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 0)
    out = loop.get_concatenated_slices(add.output(0), 0, 1, 1, -1, 0)
    ov.save_model(ov.Model([ops.result(out)], [x], "zero_trip"), str(path))
    return path


def zero_trip_scan(path: Path) -> Path:
    """Trip count 0, a merged input and a concatenated output of a [2] tensor: OpenVINO raises a
    multi-line exception compiling it (its first line alone says nothing)."""
    import openvino as ov
    import openvino.opset8 as ops

    x = ops.parameter([2], np.float32, name="x")
    bx = ops.parameter([2], np.float32, name="bx")
    add = ops.add(bx, ops.constant(np.ones(2, np.float32)))
    body = ov.Model([ops.result(add), ops.result(ops.constant(np.array(True)))], [bx], "body")
    loop = ops.loop(ops.constant(np.array(0, np.int64)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(bx, x.output(0), add.output(0))
    out = loop.get_concatenated_slices(add.output(0), 0, 1, 1, -1, 0)
    ov.save_model(ov.Model([ops.result(out)], [x], "zero_scan"), str(path))
    return path


def nested_loops(path: Path, depth: int, trip: int) -> Path:
    """`depth` Loops, each inside the previous one's body, each with trip count `trip` and a state that
    the innermost body adds 1 to: trip + trip^2 + ... + trip^depth body executions, output x + trip^depth.
    A few KB of XML whichever the trip count."""
    import openvino as ov
    import openvino.opset8 as ops

    def level(d: int, outer: ov.Output) -> ov.Output:
        s = ops.parameter([1], np.float32, name=f"s{d}")
        inner = ops.add(s, ops.constant(np.ones(1, np.float32)), name=f"add{d}").output(0) if d == depth \
            else level(d + 1, s.output(0))
        body = ov.Model([ops.result(inner), ops.result(ops.constant(np.array(True)))], [s], f"body{d}")
        loop = ops.loop(ops.constant(np.array(trip, np.int64)), ops.constant(np.array(True)))
        loop.set_friendly_name(f"loop{d}")
        loop.set_function(body)
        loop.set_special_body_ports([-1, 1])
        loop.set_merged_input(s, outer, inner)
        return loop.get_iter_value(inner, -1)

    x = ops.parameter([1], np.float32, name="x")
    out = level(1, x.output(0))
    ov.save_model(ov.Model([ops.result(out)], [x], "nested"), str(path))
    return path
