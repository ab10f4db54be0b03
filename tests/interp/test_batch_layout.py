"""The layout the plain driver gives with each loop's batches (irlint.interp.events: FRESH, FIXED, or a
back edge's Result position) holds on every example and every valid TensorIterator/Loop model: a
FIXED position keeps its bytes through a loop run, a back edge's tensor is its Result's of the
iteration before (across batches too), and the trace's exact count agrees with summing every tensor."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import irlint
from irlint.interp import run
from irlint.interp.events import FIXED, FRESH
from irlint.interp.trace import _batch_counter
from tests.interp.test_conformance import random_inputs
from tests.rules.valid_irs import ALL

ov = pytest.importorskip("openvino")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Checking:
    """A listener that checks each batch against its layout, in batches of two so that back edges
    also cross from one batch to the next."""

    layers = False

    def __init__(self) -> None:
        self.roles: Counter[str] = Counter()  # positions checked, by role

    def iteration_started(self, *_args: Any) -> None: ...

    def iteration_finished(self, *_args: Any) -> None: ...

    def layer_evaluated(self, *_args: Any) -> None: ...

    def batches(self, layer: Any, ids: Any, layout: tuple[int, ...]) -> Any:
        width = len(layout)
        assert width == len(ids[0]) + len(ids[1])
        count = _batch_counter(layout)
        first_row: dict[Any, list[Any]] = {}  # per loop run (its frames): the first record
        last_row: dict[Any, list[Any]] = {}

        def take(first: int, values: list[Any], frames: Any) -> int:
            n = len(values) // width
            assert len(values) == n * width and n >= 1
            rows = [values[j * width:(j + 1) * width] for j in range(n)]
            if first == 0:
                first_row[frames] = rows[0]
            else:
                rows.insert(0, last_row[frames])
            for p, role in enumerate(layout):
                if role == FRESH:
                    self.roles["fresh"] += 1
                elif role == FIXED:
                    self.roles["fixed"] += 1
                    assert all(row[p].nbytes == first_row[frames][p].nbytes for row in rows), (layer.path, p)
                else:
                    self.roles["carried"] += 1
                    assert role >= len(ids[0]), "a back edge starts at a Result"
                    assert all(now[p] is before[role] for before, now in pairwise(rows)), (layer.path, p)
            last_row[frames] = rows[-1]
            assert count(values, n) == sum(v.nbytes for v in values)
            return 2

        return take


def check(model: Any, inputs: dict[str, np.ndarray]) -> Counter[str]:
    listener = Checking()
    run(model, inputs, listener=listener)
    return listener.roles


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.xml")))
def test_examples(name: str) -> None:
    check(irlint.load(EXAMPLES / f"{name}.xml"), dict(np.load(EXAMPLES / "inputs" / f"{name}.npz")))


@pytest.mark.parametrize("name", sorted(ALL))
def test_valid_models(name: str, tmp_path: Path) -> None:
    model = ALL[name]()
    path = tmp_path / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    check(irlint.load(path), random_inputs(model))


def test_the_examples_meet_every_role() -> None:
    roles: Counter[str] = Counter()
    for path in EXAMPLES.glob("*.xml"):
        roles += check(irlint.load(path), dict(np.load(EXAMPLES / "inputs" / f"{path.stem}.npz")))
    assert roles["fresh"] and roles["fixed"] and roles["carried"], roles


def test_count_follows_the_layout() -> None:
    """Position 0 carried from 2, 1 fixed, 2 fresh (its size grows), 3 fresh: the count reads the
    first record whole and only the fresh positions after it."""
    grow = [np.zeros(k + 1, np.float32) for k in range(5)]
    fixed = np.zeros(3, np.int64)
    values: list[np.ndarray] = []
    before = np.zeros(7, np.float64)
    for k in range(5):
        values += [before, fixed, grow[k], np.zeros(2, np.int8)]
        before = grow[k]
    assert _batch_counter((2, FIXED, FRESH, FRESH))(values, 5) == sum(v.nbytes for v in values)
    with pytest.raises(ValueError, match="another back edge"):
        _batch_counter((1, 0))
