"""Comparing runs of a model: irlint's reference results against OpenVINO's CPU plugin, or two IRs of one
model, output by output, iteration by iteration and layer by layer (`irlint compare` prints the result).

OpenVINO is never imported here: it runs in a child process (`irlint.comparison.openvino`).
"""

from __future__ import annotations

from irlint.comparison.api import compare
from irlint.comparison.errors import CompareError
from irlint.comparison.result import Comparison

__all__ = ["CompareError", "Comparison", "compare"]
