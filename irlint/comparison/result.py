"""What a comparison found: the report (the JSON of `irlint compare --format json`), the plot's panels,
and the verdict the command line turns into its exit code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from irlint.comparison.stats import ErrorRow

Panel = tuple[str, list[ErrorRow]]


@dataclass
class Comparison:
    """`mode` "openvino": irlint against OpenVINO's CPU plugin; "two": model A against model B, both run by
    irlint (and by OpenVINO too when asked). `report` holds every finding as plain data."""

    mode: Literal["openvino", "two"]
    title: str
    report: dict[str, Any]
    panels: list[Panel] = field(default_factory=list)
    differs: bool = False

    @property
    def openvino_error(self) -> Any:
        """OpenVINO's own failure in words (a list of them for two models), or None."""
        return self.report.get("openvino_error")

    @property
    def ok(self) -> bool:
        """Everything compared agrees and every run finished."""
        return not self.differs and self.openvino_error is None

    def to_json(self) -> Any:
        """The report as JSON-ready data (rows as objects, infinities and NaN as strings)."""
        return json_ready(self.report)

    def text(self) -> str:
        """The human report, as `irlint compare` prints it."""
        from irlint.comparison.text import report_lines

        return "\n".join(report_lines(self)) + "\n"


def json_ready(o: Any) -> Any:
    if isinstance(o, ErrorRow):
        return o.as_json()
    if isinstance(o, dict):
        return {k: json_ready(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [json_ready(v) for v in o]
    if isinstance(o, float) and not np.isfinite(o):
        return str(o)
    return o
