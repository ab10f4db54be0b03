"""The error statistics of `irlint compare`: ULP distance, per-iteration parts, the short table."""

from __future__ import annotations

import numpy as np

from irlint.comparison.stats import error_row, parts_along, summary_rows, table, ulp_distance


def test_ulp_counts_representable_values() -> None:
    one = np.float32(1.0)
    up = np.nextafter(one, np.float32(2))
    got = np.array([one, up, np.nextafter(up, np.float32(2)), 0.0, -0.0], np.float32)
    want = np.array([one, one, one, -0.0, np.nextafter(np.float32(0), np.float32(1))], np.float32)
    assert ulp_distance(got, want).tolist() == [0, 1, 2, 0, 1]
    tiny = np.nextafter(np.float32(0), np.float32(1))
    assert ulp_distance(np.array([-tiny], np.float32), np.array([tiny], np.float32)).tolist() == [2]  # across zero


def test_ulp_of_nan_and_of_other_types() -> None:
    nan = np.float32(np.nan)
    d = ulp_distance(np.array([nan, nan, 1.0], np.float32), np.array([nan, 1.0, nan], np.float32))
    assert d[0] == 0 and np.isinf(d[1]) and np.isinf(d[2])
    assert ulp_distance(np.array([1.0]), np.array([np.nextafter(1.0, 2.0)])).tolist() == [1]  # float64
    assert ulp_distance(np.array([7], np.int32), np.array([4], np.int32)).tolist() == [3]
    assert ulp_distance(np.array([1], np.float16), np.array([np.nextafter(np.float16(1), np.float16(2))],
                                                            np.float16)).tolist() == [1]


def test_error_row() -> None:
    row = error_row("3", np.array([1.0, 2.5], np.float32), np.array([1.0, 2.0], np.float32), 1e-4, 1e-5)
    assert (row.iteration, row.max_abs, row.max_rel, row.beyond, row.size) == ("3", 0.5, 0.25, 1, 2)
    assert row.max_ulp == 2 ** 21  # 2.0 to 2.5 in float32 steps of 2^-22
    same = error_row("0", np.array([np.nan]), np.array([np.nan]), 0, 0)
    assert same.max_abs == 0 and same.beyond == 0


def test_parts_along_puts_a_reversed_concatenation_back_in_iteration_order() -> None:
    got = np.arange(6).reshape(1, 6)
    parts = parts_along(got, got + 0, axis=1, n=3, reversed_=True)
    assert [(k, g.tolist()) for k, g, _w in parts] == [(0, [[4, 5]]), (1, [[2, 3]]), (2, [[0, 1]])]
    assert parts_along(got, got, axis=1, n=4, reversed_=False) == []  # 6 is not 4 parts


def test_a_long_table_keeps_first_worst_first_beyond_and_last() -> None:
    rows = [error_row(str(k), np.array([float(k == 40) + (k == 70) * 9]), np.array([0.0]), 0.5, 0.5)
            for k in range(100)]
    kept = summary_rows(rows)
    shown = [r.iteration for r in kept if r is not None]
    assert shown[:5] == ["0", "1", "2", "3", "4"] and "40" in shown and "70" in shown and shown[-1] == "99"
    assert None in kept and len(kept) <= 16
    lines = table(rows)
    assert lines[0].split()[0] == "iteration" and any(line.strip() == "..." for line in lines)


def test_divergence_keeps_the_first_disagreement_in_order_of_computation() -> None:
    from irlint.comparison.stats import Divergence

    seen = Divergence()
    same, off = np.ones(3, np.float32), np.array([1, 2, 1], np.float32)
    assert seen.row("b", (1,), off, same, 0, 0, (5, 0), "late") is not None
    assert seen.row("a", (0,), same, same, 0, 0, (1, 0), "fine") is not None
    assert seen.row("a", (1,), off, same, 0, 0, (2, 1), "early") is not None
    assert seen.row("a", (1,), same, same, 0, 0, (2, 0), "other port agrees") is not None
    assert seen.row("s", (0,), np.array(["x"]), np.array(["x"]), 0, 0, (0,), "text") is None
    assert seen.first == "early"
    assert seen.verdicts == {("b", (1,)): False, ("a", (0,)): True, ("a", (1,)): False}
