"""irlint: validator, reference interpreter and step debugger for OpenVINO IR recurrence.

`irlint.load(path) -> Model` and `irlint.check(path, select=..., ignore=...) -> list[Diagnostic]`
are imported lazily so that `import irlint` (and `irlint --version`) stays cheap.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["State", "__version__", "check", "check_model", "compare", "list_rules", "load", "run"]


def __getattr__(name: str) -> Any:
    if name in ("check", "load", "check_model", "list_rules", "run", "State"):
        from irlint import api

        return getattr(api, name)
    if name == "compare":
        from irlint.comparison import compare

        return compare
    raise AttributeError(f"module 'irlint' has no attribute {name!r}")
