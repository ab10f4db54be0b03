"""JSON: a top-level array of `Diagnostic.to_dict()` objects (docs/contracts.md), keys in a fixed order."""

from __future__ import annotations

import json
from collections.abc import Sequence

from irlint.diagnostics import Diagnostic


def render_json(diags: Sequence[Diagnostic]) -> str:
    # ensure_ascii=False: layer names and messages stay readable; the CLI writes UTF-8
    return json.dumps([d.to_dict() for d in diags], indent=2, ensure_ascii=False) + "\n"
