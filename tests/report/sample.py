"""The sample the reporter tests share: fixed diagnostics over the fixture files in data/.

Paths are relative and the tests run from the repository root, so golden files do not depend on
where the checkout lives. Regenerate goldens with IRLINT_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

from irlint.diagnostics import Diagnostic, Location, Related, Severity
from irlint.report.ruleinfo import RuleInfo

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
MODEL = "tests/report/data/model.xml"  # tab-indented, ASCII
ODD = "tests/report/data/odd.xml"  # multi-byte and wide characters, a 583-byte line, an ESC byte
FILES = [MODEL, ODD]

RULES = {
    "G102": RuleInfo(
        "G102",
        "edge-unknown-layer",
        "error",
        "An edge names a layer id that does not exist.",
        "An edge names a layer id that does not exist.\n\nWhat it checks:\n\nEvery `<edge>` names existing layers.\n",
        "https://example.invalid/rules#g102-edge-unknown-layer",
    ),
    "T203": RuleInfo("T203", "parameter-declaration-mismatch", "error", "Parameter disagrees.", "Parameter disagrees."),
    "G110": RuleInfo("G110", "unknown-layer-type", "info", "Unknown type.", "Unknown type."),
}


def sample() -> list[Diagnostic]:
    """Deliberately unsorted; covers related notes, hints, hostile text, byte columns, file-level findings."""
    return [
        Diagnostic(
            "G110",
            Severity.INFO,
            "layer type Foo (opset1) is unknown to irlint",
            Location(ODD, 4, 47),
            "unknown-layer-type",
            "1",
        ),
        Diagnostic(
            "G102",
            Severity.ERROR,
            "edge to-layer=9: no layer 9 in the top-level graph",
            Location(MODEL, 12, 3),
            "edge-unknown-layer",
            None,
            None,
            (Related(Location(MODEL, 4, 3), "layers are declared here"),),
            "edges connect layers of the same level",
        ),
        Diagnostic(
            "T203",
            Severity.WARNING,
            'message with "quotes", <tags> & ampersands,\nnewline, 100% ünïcode, a,b:c',
            Location(MODEL, 7, 5),
            "parameter-declaration-mismatch",
            "0",
            0,
            hint="declare f32[1,3]",
        ),
        Diagnostic(
            "G110",
            Severity.INFO,
            "layer type Bar (opset1) is unknown to irlint",
            Location(ODD, 5, 555),
            "unknown-layer-type",
            "2",
            related=(
                Related(Location(ODD, 5, 420), "attribute a45 is here"),
                Related(Location("tests/report/data/missing.xml", 3, 1), "a file that is not there"),
            ),
        ),
        Diagnostic("G110", Severity.INFO, "escape \x1b[31m in a name", Location(ODD, 6, 42), "unknown-layer-type"),
        Diagnostic("W301", Severity.ERROR, "model.bin is missing", Location(MODEL), "weights-file-missing"),
    ]


def assert_golden(name: str, text: str) -> None:
    golden = HERE / "golden" / name
    if os.environ.get("IRLINT_UPDATE_GOLDEN"):
        golden.write_bytes(text.encode("utf-8"))
    assert golden.exists(), f"no golden file {name}: run with IRLINT_UPDATE_GOLDEN=1"
    assert text == golden.read_bytes().decode("utf-8")
