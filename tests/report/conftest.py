"""Run the reporter tests from the repository root: the sample's paths are relative to it."""

from __future__ import annotations

import pytest

from tests.report.sample import ROOT


@pytest.fixture(autouse=True)
def _repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
