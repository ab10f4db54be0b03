"""`slow` tests here (long campaigns) run only when asked for: `pytest -m slow tests/differential`."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long campaign: run with -m slow")
    for item in items:
        if "differential" in item.nodeid and item.get_closest_marker("slow"):
            item.add_marker(skip)
