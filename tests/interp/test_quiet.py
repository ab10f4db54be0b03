"""The event driver's cheap silencing of numpy's float warnings: off in between, as before after."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from irlint.interp import quiet


@pytest.mark.parametrize("pair", [quiet._context_variable(), quiet._errstate()], ids=["context variable", "errstate"])
def test_warnings_are_off_in_between_and_restored(pair) -> None:  # type: ignore[no-untyped-def]
    if pair is None:
        pytest.skip("this numpy keeps its error state elsewhere")
    silence, restore = pair
    big = np.array([3e38], np.float32)
    with np.errstate(over="raise"):
        token = silence()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert np.isinf(big * 10)[0]  # neither a warning nor an exception
        finally:
            restore(token)
        with pytest.raises(FloatingPointError):
            _ = big * 10  # the caller's setting is back
    assert np.geterr()["over"] == "warn"


def test_the_module_uses_a_working_pair() -> None:
    token = quiet.silence()
    try:
        assert np.geterr() == {"divide": "ignore", "over": "ignore", "under": "ignore", "invalid": "ignore"}
    finally:
        quiet.restore(token)
    assert np.geterr()["invalid"] == "warn"
