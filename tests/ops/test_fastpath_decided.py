"""What a reshaping or splitting kernel's `compute` decided for an input shape is kept across runs
(irlint.ops.fastpath._decided): keyed by the op type, the attributes object and the constant inputs'
values, so that a later binding of the same layer does not pay `compute` again, and nothing else
shares it."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import fastpath, lookup


def test_a_second_binding_of_the_same_layer_reuses_what_compute_decided(monkeypatch: pytest.MonkeyPatch) -> None:
    op = lookup("Unsqueeze", "opset1")
    attrs, axes = op.Attrs(), np.array([0], np.int64)
    calls: list[tuple[int, ...]] = []
    compute = type(op).compute

    def counted(self, attrs, inputs):  # type: ignore[no-untyped-def]
        calls.append(np.asarray(inputs[0]).shape)
        return compute(self, attrs, inputs)

    monkeypatch.setattr(type(op), "compute", counted)
    x = np.ones((2, 3), np.float32)
    first = op.prepare(attrs, [None, axes])([x, axes])[0]
    again = op.prepare(attrs, [None, axes.copy()])([x, axes])[0]  # another run: equal axes, a new array
    assert first.shape == again.shape == (1, 2, 3) and calls == [(2, 3)]
    op.prepare(attrs, [None, axes])([np.ones(4, np.float32), axes])  # a new input shape: compute decides
    assert calls == [(2, 3), (4,)]


def test_other_attributes_or_constants_decide_afresh() -> None:
    op = lookup("Unsqueeze", "opset1")
    attrs = op.Attrs()
    one, two = np.array([0], np.int64), np.array([1], np.int64)
    memo = fastpath._decided(op, attrs, [None, one])
    assert fastpath._decided(op, attrs, [None, one.copy()]) is memo
    assert fastpath._decided(op, attrs, [None, two]) is not memo  # other axes
    assert fastpath._decided(op, op.Attrs(), [None, one]) is not memo  # another layer's attributes
    assert fastpath._decided(lookup("Squeeze", "opset1"), attrs, [None, one]) is not memo  # another op
    x = np.ones((2, 3), np.float32)
    assert op.prepare(attrs, [None, two])([x, two])[0].shape == (2, 1, 3)
    assert op.prepare(attrs, [None, one])([x, one])[0].shape == (1, 2, 3)


def test_large_or_float_constants_are_not_keyed() -> None:
    op = lookup("Reshape", "opset1")
    attrs = op.Attrs(special_zero=False)
    big = np.ones(fastpath._MAX_KEY_BYTES, np.int64)
    assert fastpath._decided(op, attrs, [None, big]) is not fastpath._decided(op, attrs, [None, big])
    half = np.array([0.5], np.float32)
    assert fastpath._decided(op, attrs, [None, half]) is not fastpath._decided(op, attrs, [None, half])
