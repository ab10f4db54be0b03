"""irlint: validator, reference interpreter and step debugger for OpenVINO IR recurrence.

`irlint.load`, `check`, `run`, `step`, `trace` (irlint.api) and `render` (the viewer's diagram,
irlint.viewer.notebook) are imported lazily so that `import irlint` (and `irlint --version`) stays
cheap. Each takes a path to an IR .xml, a loaded `Model` or an `openvino.Model`; openvino itself is
never imported by irlint.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = [
    "Diagnostics",
    "State",
    "__version__",
    "check",
    "check_model",
    "compare",
    "list_rules",
    "load",
    "render",
    "run",
    "step",
    "trace",
]


def __getattr__(name: str) -> Any:
    if name in ("check", "load", "check_model", "list_rules", "run", "step", "trace", "State", "Diagnostics"):
        from irlint import api

        return getattr(api, name)
    if name == "compare":
        from irlint.comparison import compare

        return compare
    if name == "render":  # the viewer's: the core never imports it, the package's facade offers it
        from irlint.viewer.notebook import render

        return render
    raise AttributeError(f"module 'irlint' has no attribute {name!r}")
