"""The `render` entry point: dispatch, sorting, unknown formats."""

from __future__ import annotations

import pytest

from irlint.report import FORMATS, render
from tests.report.sample import FILES, RULES, sample


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown report format 'xml'"):
        render("xml", sample(), files=FILES, rules=RULES)


@pytest.mark.parametrize("fmt", FORMATS)
def test_input_order_does_not_matter(fmt: str) -> None:
    forward = render(fmt, sample(), files=FILES, rules=RULES)
    assert render(fmt, list(reversed(sample())), files=FILES, rules=RULES) == forward


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_ends_with_a_newline(fmt: str) -> None:
    assert render(fmt, sample(), files=FILES, rules=RULES).endswith("\n")
    empty = render(fmt, [], files=FILES, rules=RULES)
    assert empty == "" if fmt == "github" else empty.endswith("\n")  # no finding, no annotation
