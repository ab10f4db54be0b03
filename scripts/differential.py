"""A differential campaign: irlint against OpenVINO on N generated (or mutated) Loop/TI/If models.

    .venv/bin/python scripts/differential.py --count 2000 --seed 0 --mode build --report out.json

Seeds S .. S+N-1 each build one model (tests/differential/generator.py); in `mutate` mode the model's
XML is then mutated once. irlint's verdict and outputs are compared with OpenVINO's (read_model,
compile_model on CPU, one inference; tests/differential/compare.py says what counts as agreement).
The report (JSON, and markdown next to it) groups the disagreements by family, with every seed, the
notes all the family's models share, and the smallest example (`--minimize` looks for a smaller one:
the seed with smaller generator knobs, then other seeds with the smallest knobs; `--keep DIR` copies
its XML there). Reproduce one seed with `--count 1 --seed S` (and `--knobs D,S,I` when the example
names knobs other than the mode's defaults).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.differential.campaign import Outcome, check_seed, default_knobs, keep, minimize  # noqa: E402
from tests.differential.known import known  # noqa: E402
from tests.differential.oracle import OpenVINO  # noqa: E402


def size(o: Outcome) -> int:
    return o.xml.stat().st_size if o.xml is not None and o.xml.exists() else 1 << 30


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="the first seed")
    ap.add_argument("--mode", choices=["build", "mutate", "textbook"], default="build")
    ap.add_argument("--report", type=Path, required=True, help="JSON report; a .md is written beside it")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds OpenVINO may take per model")
    ap.add_argument("--keep", type=Path, help="copy each family's smallest model here")
    ap.add_argument("--minimize", action="store_true", help="look for a smaller example of each family")
    ap.add_argument("--knobs", help="max_depth,max_steps,max_inputs of the generator (default: the mode's)")
    ap.add_argument("--more-types", action="store_true",
                    help="draw i8, i16, u16, u32 and u64 too (changes every seed's model)")
    ap.add_argument("--families", action="store_true",
                    help="draw the Loop families of tests/differential/families.py (build mode)")
    args = ap.parse_args(argv)

    knobs = default_knobs(args.mode)
    if args.knobs:
        d, st, i = (int(x) for x in args.knobs.split(","))
        knobs = replace(knobs, max_depth=d, max_steps=st, max_inputs=i)
    if args.more_types:
        knobs = replace(knobs, more_types=True)
    if args.families:
        knobs = replace(knobs, families=True)
    families: dict[str, dict] = {}
    smallest: dict[str, Outcome] = {}
    counts = {"checked": 0, "agree": 0, "disagree": 0, "skipped": 0, "warned": 0, "false_warnings": 0}
    skipped: dict[str, int] = {}
    warned_by: dict[str, dict[str, int]] = {}  # departure code -> models it was said on, and how many needlessly
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="irlint-differential-") as tmp, OpenVINO(args.timeout) as oracle:
        work = Path(tmp)
        for seed in range(args.seed, args.seed + args.count):
            o = check_seed(seed, args.mode, oracle, work, knobs)
            if o.skipped:
                counts["skipped"] += 1
                skipped[o.skipped] = skipped.get(o.skipped, 0) + 1
                continue
            counts["checked"] += 1
            counts["warned"] += o.warned
            counts["false_warnings"] += o.false_warning
            for code in o.warned_codes:
                tally = warned_by.setdefault(code, {"warned": 0, "false": 0})
                tally["warned"] += 1
                tally["false"] += o.false_warning
            d = o.disagreement
            if d is None:
                counts["agree"] += 1
                o.xml.unlink(missing_ok=True)
                o.xml.with_suffix(".bin").unlink(missing_ok=True)
                continue
            counts["disagree"] += 1
            fam = families.setdefault(d.family, {"family": d.family, "kind": d.kind, "count": 0, "seeds": [],
                                                 "common_notes": None})
            fam["count"] += 1
            fam["seeds"].append(seed)
            k = known(o) or "new"
            fam.setdefault("known", {})[k] = fam.setdefault("known", {}).get(k, 0) + 1
            notes = set(o.notes)
            fam["common_notes"] = notes if fam["common_notes"] is None else fam["common_notes"] & notes
            if d.family not in smallest or size(o) < size(smallest[d.family]):
                old = smallest.get(d.family)
                smallest[d.family] = o
                o.xml = keep(o, work / "kept")  # out of the way of the next models' files
                if old is not None and old.xml is not None:
                    old.xml.unlink(missing_ok=True)
            else:
                o.xml.unlink(missing_ok=True)
        elapsed = time.monotonic() - started
        for name, fam in families.items():
            ex = smallest[name]
            if args.minimize:
                m = minimize(ex.seed, args.mode, name, oracle, work)
                if m is not None and size(m) < size(ex):
                    m.xml = keep(m, work / "kept-min")
                    ex = m
            fam["common_notes"] = sorted(fam["common_notes"] or [])
            fam["example"] = {"seed": ex.seed, "mode": ex.mode, "knobs": ex.knobs.__dict__, "mutation": ex.mutation,
                              "openvino": ex.ov_stage, "irlint_errors": ex.irlint_codes,
                              "detail": ex.disagreement.detail if ex.disagreement else "", "notes": ex.notes,
                              "xml_bytes": size(ex)}
            if args.keep is not None and ex.xml is not None:
                fam["example"]["xml"] = str(keep(ex, args.keep / f"{args.mode}-{ex.seed}"))
        report = {"mode": args.mode, "first_seed": args.seed, "count": args.count, "counts": counts,
                  "seconds": round(elapsed, 1), "models_per_second": round(args.count / elapsed, 2),
                  "openvino_restarts": oracle.restarts,
                  "openvino_unrepeated_crashes": oracle.unrepeated_crashes,
                  "openvino_unrepeated_hangs": oracle.unrepeated_hangs, "skipped": skipped,
                  "warned_by_code": dict(sorted(warned_by.items())),
                  "families": sorted(families.values(), key=lambda f: -f["count"])}
    args.report.write_text(json.dumps(report, indent=1, default=sorted))
    args.report.with_suffix(".md").write_text(markdown(report))
    print(f"{counts['checked']} checked, {counts['disagree']} disagree in {len(families)} families, "
          f"{report['models_per_second']} models/s -> {args.report}")
    return 0


def markdown(report: dict) -> str:
    c = report["counts"]
    out = [f"# Differential campaign: {report['mode']}, seeds {report['first_seed']}.."
           f"{report['first_seed'] + report['count'] - 1}", "",
           f"{c['checked']} models checked ({c['skipped']} skipped), {c['agree']} agree, {c['disagree']} disagree; "
           f"irlint says OpenVINO departs on {c.get('warned', 0)}, of which OpenVINO computes irlint's values on "
           f"{c.get('false_warnings', 0)} (false warnings); "
           f"{report['models_per_second']} models/s; OpenVINO worker restarts: {report['openvino_restarts']} "
           f"({report.get('openvino_unrepeated_crashes', 0)} deaths and {report.get('openvino_unrepeated_hangs', 0)} "
           "hangs a fresh worker did not repeat).", ""]
    if report.get("warned_by_code"):
        out += ["Departure statements (models said on, of which OpenVINO computes irlint's values): "
                + ", ".join(f"{k} {v['warned']} ({v['false']})" for k, v in report["warned_by_code"].items()), ""]
    for f in report["families"]:
        ex = f["example"]
        out += [f"## {f['family']}", "",
                f"- kind: {f['kind']}; {f['count']} models; seeds: {', '.join(map(str, f['seeds'][:12]))}"
                + (" ..." if len(f["seeds"]) > 12 else ""),
                f"- shared by all: {', '.join(f['common_notes']) or '-'}",
                "- known families (tests/differential/known.py): "
                + ", ".join(f"{k} ({n})" for k, n in sorted(f["known"].items(), key=lambda kv: -kv[1])),
                f"- smallest: seed {ex['seed']} ({ex['xml_bytes']} bytes), knobs {ex['knobs']}"
                + (f", mutation: {ex['mutation']}" if ex["mutation"] else ""),
                f"- OpenVINO: {ex['openvino']}; irlint errors: {', '.join(ex['irlint_errors']) or 'none'}",
                f"- {ex['detail'][:400]}", ""]
        if "xml" in ex:
            out.insert(-1, f"- kept: {ex['xml']}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
