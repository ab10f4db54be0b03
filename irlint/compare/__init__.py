"""Comparing runs of a model: irlint's reference results against OpenVINO's CPU plugin, or two IRs of one
model, output by output, iteration by iteration and layer by layer (`irlint compare` prints the result).

OpenVINO is never imported here: it runs in a child process (`irlint.compare.openvino`).
"""

from __future__ import annotations

from irlint.compare.api import compare
from irlint.compare.errors import CompareError
from irlint.compare.result import Comparison

__all__ = ["CompareError", "Comparison", "compare"]
