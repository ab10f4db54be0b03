"""SARIF 2.1.0: one run, a rule descriptor per rule that has results, results with related locations.

Regions count columns in Unicode code points (`columnKind`), while `Location.column` is a byte
offset, so columns are converted from the source line when it can be read (they only differ on
lines with non-ASCII text). `properties` carry irlint's layer path, port and hint, which SARIF has
no field for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from irlint import __version__
from irlint.diagnostics import Diagnostic, Location
from irlint.report.paths import artifact_uri
from irlint.report.ruleinfo import PROJECT_URI, RuleInfo
from irlint.report.sourcelines import SourceLines

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


class _Artifacts:
    """The run's `artifacts` array: the checked files first, then any other file a location names."""

    def __init__(self, files: Sequence[str]) -> None:
        self.entries: list[dict[str, object]] = []
        self._index: dict[str, int] = {}
        for f in files:
            self.index(f, target=True)

    def index(self, path: str, target: bool = False) -> int:
        uri = artifact_uri(path)
        if uri not in self._index:
            self._index[uri] = len(self.entries)
            entry: dict[str, object] = {"location": {"uri": uri}}
            if target:
                entry["roles"] = ["analysisTarget"]
            self.entries.append(entry)
        return self._index[uri]


def _column(loc: Location, sources: SourceLines) -> int:
    col = max(loc.column, 1)
    raw = sources.line(loc.path, loc.line)
    if raw is None or col - 1 > len(raw):
        return col
    return len(raw[: col - 1].decode("utf-8", "replace")) + 1


def _location(loc: Location, artifacts: _Artifacts, sources: SourceLines) -> dict[str, object]:
    index = artifacts.index(loc.path)
    physical: dict[str, object] = {"artifactLocation": {"uri": artifact_uri(loc.path), "index": index}}
    if loc.line > 0:
        physical["region"] = {"startLine": loc.line, "startColumn": _column(loc, sources)}
    return {"physicalLocation": physical}


def _descriptor(info: RuleInfo) -> dict[str, object]:
    summary = info.summary or info.name
    doc = info.doc or summary
    d: dict[str, object] = {
        "id": info.code,
        "name": info.name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": doc, "markdown": doc},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": LEVELS.get(info.severity, "warning")},
    }
    if info.help_uri:
        d["helpUri"] = info.help_uri
    return d


def render_sarif(diags: Sequence[Diagnostic], *, files: Sequence[str], rules: Mapping[str, RuleInfo]) -> str:
    sources = SourceLines(loc for d in diags for loc in (d.loc, *(r.loc for r in d.related)))
    used = sorted({d.code for d in diags})
    # a code without metadata (a third-party pack's diagnostic passed in by hand) still gets a descriptor
    infos = [rules.get(code) or RuleInfo(code, code.lower(), "warning", code, "") for code in used]
    rule_index = {info.code: i for i, info in enumerate(infos)}
    artifacts = _Artifacts(files)
    results = []
    for d in diags:
        result: dict[str, object] = {
            "ruleId": d.code,
            "ruleIndex": rule_index[d.code],
            "level": LEVELS[d.severity.value],
            "message": {"text": d.message},
            "locations": [_location(d.loc, artifacts, sources)],
        }
        if d.related:
            result["relatedLocations"] = [
                {"id": i, **_location(r.loc, artifacts, sources), "message": {"text": r.note}}
                for i, r in enumerate(d.related)
            ]
        props = {k: v for k, v in (("layer", d.layer), ("port", d.port), ("hint", d.hint)) if v is not None}
        if props:
            result["properties"] = props
        results.append(result)
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "irlint",
                        "version": __version__,
                        "informationUri": PROJECT_URI,
                        "rules": [_descriptor(i) for i in infos],
                    }
                },
                "artifacts": artifacts.entries,
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
