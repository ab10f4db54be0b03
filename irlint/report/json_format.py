"""JSON: a top-level array of diagnostics (GUIDE.md §3), stable key order, one object per finding."""

from __future__ import annotations

import json
from collections.abc import Sequence

from irlint.diagnostics import Diagnostic


def render_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diags], indent=2, ensure_ascii=False) + "\n"
