"""SARIF 2.1.0: one run, rule descriptors from the rules' docs, results with related locations.

Paths are made relative to the working directory when possible (code-scanning services resolve
them against the repository root); `properties` carry irlint's layer path, port and hint.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from irlint import __version__
from irlint.diagnostics import Diagnostic, Location
from irlint.report.ruleinfo import RuleInfo

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _uri(path: str) -> str:
    p = Path(path)
    try:
        rel = p.resolve().relative_to(Path.cwd().resolve())
        return rel.as_posix()
    except (ValueError, OSError):
        return p.resolve().as_uri() if p.is_absolute() or os.sep in path else p.as_posix()


def _location(loc: Location, message: str | None = None) -> dict[str, object]:
    physical: dict[str, object] = {"artifactLocation": {"uri": _uri(loc.path)}}
    if loc.line:
        physical["region"] = {"startLine": loc.line, "startColumn": max(loc.column, 1)}
    out: dict[str, object] = {"physicalLocation": physical}
    if message is not None:
        out["message"] = {"text": message}
    return out


def _descriptor(info: RuleInfo) -> dict[str, object]:
    d: dict[str, object] = {
        "id": info.code,
        "name": info.name,
        "shortDescription": {"text": info.summary or info.name},
        "fullDescription": {"text": info.doc or info.summary or info.name},
        "help": {"text": info.doc or info.summary or info.name, "markdown": info.doc or info.summary or info.name},
        "defaultConfiguration": {"level": _LEVEL.get(info.severity, "warning")},
    }
    if info.help_uri:
        d["helpUri"] = info.help_uri
    return d


def render_sarif(diags: Sequence[Diagnostic], *, files: Sequence[str], rules: Mapping[str, RuleInfo]) -> str:
    used = sorted({d.code for d in diags})
    infos = [rules.get(code) or RuleInfo(code, code.lower(), "warning", code, "") for code in used]
    index = {info.code: i for i, info in enumerate(infos)}
    results = []
    for d in diags:
        result: dict[str, object] = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _LEVEL[d.severity.value],
            "message": {"text": d.message},
            "locations": [_location(d.loc)],
        }
        if d.related:
            result["relatedLocations"] = [
                {"id": i, **_location(r.loc, r.note)} for i, r in enumerate(d.related)
            ]
        props = {k: v for k, v in (("layer", d.layer), ("port", d.port), ("hint", d.hint)) if v is not None}
        if props:
            result["properties"] = props
        results.append(result)
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "irlint",
                        "version": __version__,
                        "informationUri": "https://github.com/irlint/irlint",
                        "rules": [_descriptor(i) for i in infos],
                    }
                },
                "artifacts": [{"location": {"uri": _uri(f)}} for f in files],
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
