"""`--statistics`: how many findings of each code, instead of the findings (as `ruff --statistics`).

Text: one row per code, most frequent first (then by code), `[*]` marking codes of which `--fix`
repairs a finding (a fix only `--unsafe-fixes` applies does not count; the footer counts those).
JSON: a list of `{"code", "name", "count", "fixable"}` in the same order.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from irlint.diagnostics import Diagnostic
from irlint.report.ruleinfo import RuleInfo
from irlint.report.text import clean


def rows(diags: Sequence[Diagnostic], rules: Mapping[str, RuleInfo],
         fixable: Collection[str]) -> list[dict[str, object]]:
    counts = Counter(d.code for d in diags)
    names = {d.code: d.rule for d in diags}
    # A code is fixable when `--fix` repairs one of its findings: a finding marked with a safe fix
    # (`Diagnostic.fix`); unmarked findings (the marks were not computed) fall back on `fixable`.
    marked = any(d.fix is not None for d in diags)
    safe = {d.code for d in diags if d.fix == "safe"} if marked else set(fixable)
    out = []
    for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        info = rules.get(code)
        out.append({"code": code, "name": info.name if info else names[code], "count": n,
                    "fixable": code in safe})
    return out


def render_statistics(fmt: str, diags: Sequence[Diagnostic], *, rules: Mapping[str, RuleInfo],
                      fixable: Collection[str]) -> str:
    table = rows(diags, rules, fixable)
    if fmt == "json":
        return json.dumps(table, indent=2) + "\n"
    if not table:
        return "No findings.\n"
    width = max(len(str(r["count"])) for r in table)
    code_w = max(len(str(r["code"])) for r in table)
    lines = [f"{r['count']:>{width}}  {r['code']:<{code_w}}  {'[*]' if r['fixable'] else '   '} {clean(str(r['name']))}"
             for r in table]
    hidden = sum(1 for d in diags if d.fix == "unsafe")
    if any(r["fixable"] for r in table):
        more = f" ({hidden} more with --unsafe-fixes)" if hidden else ""
        lines.append(f"[*] fixable with `irlint check --fix`{more}")
    elif hidden:
        lines.append(f"No fixes available ({hidden} with --unsafe-fixes).")
    return "\n".join(lines) + "\n"
