"""Fix one file: check, ask the providers for edits, apply them, check again, until nothing is left to fix.

Everything happens in memory (`irlint.ir.loader.parse_bytes`): the XML is re-parsed from the
edited bytes after each pass and the .bin is only read (the loader never writes it). A fix is
kept only if the finding it targets (code, layer, port) is gone after applying it; fixes that do
not repair are dropped and the pass is redone without them. The file as a whole is fixed only if
the result has no finding (by code, layer and port) that the original did not have: a repair never
trades one defect for another. Writing the result is the caller's business (`write_atomic`).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.engine.context import Context
from irlint.engine.discovery import all_rules
from irlint.engine.recovery import fold_consequences
from irlint.engine.runner import RunOptions, run_rules
from irlint.engine.selection import Selection
from irlint.fix import providers as _providers  # noqa: F401  (registers the built-in providers)
from irlint.fix.edits import EditConflict, Occupied, apply_edits
from irlint.fix.registry import PROVIDERS, Fix, FixContext
from irlint.ir.codes import MALFORMED_XML
from irlint.ir.loader import MAX_XML_BYTES, default_weights_path, parse_bytes
from irlint.ir.model import Model
from irlint.ir.weights import Weights
from irlint.layerpath import Place, finding_places
from irlint.rule import Rule

MAX_PASSES = 10  # a fix can expose the next (a stale output fixed makes the consumer's stale input visible)
NOT_PARSED = frozenset({"IR001", "IR002"})
Target = tuple[str, "str | None", "int | None"]


@dataclass
class FixOutcome:
    """The result of fixing one file; `diagnostics` are those of `fixed` (== `original` when nothing applied)."""

    path: str
    original: bytes
    fixed: bytes
    applied: list[Fix] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    withheld: str | None = None  # why fixes that were found were not applied
    names: dict[str, Place] = field(default_factory=dict)  # layer and port (place_key) -> their names
    found: int = 0  # findings before fixing
    resolved: int = 0  # findings gone, the consequences folded into others counted too

    @property
    def changed(self) -> bool:
        return self.fixed != self.original


class _Checker:
    """Check XML bytes with a fixed rule selection; keeps the model and context for the providers."""

    def __init__(self, path: str, weights: Weights, rules: Sequence[Rule], debug: bool) -> None:
        self.path, self.weights, self.rules, self.debug = path, weights, rules, debug

    def __call__(self, data: bytes) -> tuple[Model, Context, list[Diagnostic]]:
        model = parse_bytes(data, self.path, self.weights)
        ctx = Context(model)
        # unfolded: a consequence's own fix is offered too (its root may have none); reports fold them
        diags = run_rules(model, self.rules, RunOptions(debug=self.debug), context=ctx, fold=False)
        return model, ctx, sorted(diags, key=Diagnostic.sort_key)


def _targets(diags: Sequence[Diagnostic]) -> Counter[Target]:
    return Counter((d.code, d.layer, d.port) for d in diags)


def _candidates(model: Model, ctx: Context, data: bytes, diags: Sequence[Diagnostic], unsafe: bool,
                rejected: set[tuple[Target, bytes]], unfixable: Sequence[str] = ()) -> list[Fix]:
    """One fix per fixable finding, without overlapping edits, skipping fixes already seen to fail and
    codes matching a prefix in `unfixable` (the file's per-file ignores: an ignored finding is not touched)."""
    fc = FixContext(model, ctx, data, unsafe)
    chosen: list[Fix] = []
    taken = Occupied()
    for d in diags:
        entry = PROVIDERS.get(d.code)
        if entry is None or any(p == "ALL" or d.code.startswith(p) for p in unfixable):
            continue
        try:
            fix = entry[1](fc, d)
        except (LookupError, ValueError, EditConflict):
            fix = None  # the value could not be placed exactly in the text: no fix is offered
        if fix is None or (not fix.safe and not unsafe) or (fix.target, _sig(fix)) in rejected:
            continue
        if not taken.all_free(fix.edits):
            continue  # the next pass sees it again (or, if its own edits overlap, never)
        taken.claim(fix.edits)
        chosen.append(fix)
    return chosen


def offered(model: Model, ctx: Context, data: bytes, diags: Sequence[Diagnostic],
            unfixable: Sequence[str] = ()) -> list[Diagnostic]:
    """`diags` with `fix` set to "safe" or "unsafe" where a provider offers a fix for the finding as it
    stands (what `--fix`, or `--fix --unsafe-fixes`, would try), so that reports count only fixes that
    apply rather than every finding of a code that has a provider."""
    fc = FixContext(model, ctx, data, False)
    out = []
    for d in diags:
        entry = PROVIDERS.get(d.code)
        kind = None
        if entry is not None and not any(p == "ALL" or d.code.startswith(p) for p in unfixable):
            try:
                fix = entry[1](fc, d)
                if fix is None:  # a provider may offer a guess only when guesses are allowed
                    fix = entry[1](FixContext(model, ctx, data, True), d)
            except (LookupError, ValueError, EditConflict):
                fix = None
            kind = None if fix is None else "safe" if fix.safe else "unsafe"
        out.append(d if kind == d.fix else replace(d, fix=kind))
    return out


def mark_fixes(path: str, weights: str | None, diags: Sequence[Diagnostic],
               unfixable: Sequence[str] = ()) -> list[Diagnostic]:
    """`offered` for a plain check's findings: the file is parsed again only when one of its findings'
    codes has a fix provider; a file that cannot be read or parsed leaves them as they are."""
    if not any(d.code in PROVIDERS for d in diags):
        return list(diags)
    try:
        if os.path.getsize(path) > MAX_XML_BYTES:
            return list(diags)
        with open(path, "rb") as f:
            data = f.read()
        model = parse_bytes(data, path, Weights.open(weights or default_weights_path(path)))
    except Exception:  # marks are an extra: the findings stand without them
        return list(diags)
    return offered(model, Context(model), data, diags, unfixable)


def _not_repaired(fixes: Sequence[Fix], before: Counter[Target], after: Counter[Target]) -> list[Fix]:
    """The fixes whose findings did not go away: k fixes aimed at one (code, layer, port) must leave at
    most k fewer findings there (several port_map entries of one layer share a target)."""
    aimed = Counter(f.target for f in fixes)
    failed = {t for t, k in aimed.items() if after[t] > before[t] - k}
    return [f for f in fixes if f.target in failed]


def _sig(fix: Fix) -> bytes:
    return b"|".join(b"%d:%d:%s" % (e.start, e.end, e.text) for e in fix.edits)


def fix_bytes(data: bytes, path: str, *, weights: str | None = None, rules: Sequence[Rule],
              unsafe: bool = False, debug: bool = False, unfixable: Sequence[str] = ()) -> FixOutcome:
    """Fix the IR text `data` (named `path` in locations) with the fixes of `rules`."""
    check = _Checker(path, Weights.open(weights or default_weights_path(path)), rules, debug)
    model, ctx, diags = check(data)
    shown = fold_consequences(diags)
    out = FixOutcome(path, data, data, diagnostics=shown, names=finding_places(model, shown), found=len(shown))
    if any(d.code in NOT_PARSED for d in diags):
        return out
    before = _targets(diags)
    current = data
    applied: list[Fix] = []
    rejected: set[tuple[Target, bytes]] = set()
    for _ in range(MAX_PASSES):
        cands = _candidates(model, ctx, current, diags, unsafe, rejected, unfixable)
        while cands:
            new = apply_edits(current, [e for f in cands for e in f.edits])
            model2, ctx2, diags2 = check(new)
            bad = _not_repaired(cands, _targets(diags), _targets(diags2))
            if not bad:
                break
            rejected.update((f.target, _sig(f)) for f in bad)
            cands = [f for f in cands if f not in bad]
        if not cands:
            break
        current, model, ctx, diags = new, model2, ctx2, diags2
        applied += cands
    introduced = _targets(diags) - before
    if introduced:
        what = ", ".join(f"{c} at layer {layer}" for c, layer, _p in sorted(introduced, key=str))
        out.withheld = f"the repaired file would have new findings ({what}); nothing was changed"
        return out
    out.fixed, out.applied = current, applied
    out.diagnostics = offered(model, ctx, current, fold_consequences(diags), unfixable)
    out.resolved = sum(before.values()) - len(diags)
    out.names = finding_places(model, out.diagnostics)
    return out


def fix_file(path: str, *, weights: str | None = None, select: Sequence[str] | None = None,
             extend_select: Sequence[str] = (), ignore: Sequence[str] = (), rule_dirs: Sequence[str] = (),
             unsafe: bool = False, debug: bool = False, unfixable: Sequence[str] = ()) -> FixOutcome:
    """Read `path` and fix it in memory (nothing is written). A file that cannot be read gives an IR001
    diagnostic and no change, like `irlint.api.check`."""
    try:
        if os.path.getsize(path) > MAX_XML_BYTES:
            raise OSError(f"larger than the {MAX_XML_BYTES // 1024**2} MiB of XML irlint parses")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        msg = f"cannot read the model: {path}: {e.strerror or e}"
        return FixOutcome(path, b"", b"", diagnostics=[
            Diagnostic(MALFORMED_XML.code, Severity.ERROR, msg, Location(path), MALFORMED_XML.name)])
    rules = Selection.build(select, extend_select, ignore).filter(all_rules(rule_dirs))
    return fix_bytes(data, path, weights=weights, rules=rules, unsafe=unsafe, debug=debug, unfixable=unfixable)


def write_atomic(path: str, data: bytes) -> None:
    """Replace `path` by `data`: a temporary file in the same folder, then a rename (never half a file).
    The file keeps its permission bits; a symbolic link stays a link (its target is replaced); a file
    without write permission is refused (PermissionError), although the rename would succeed."""
    path = os.path.realpath(path)
    mode = os.stat(path).st_mode & 0o7777
    if not mode & stat.S_IWUSR or not os.access(path, os.W_OK):  # read-only is a request, even to root
        raise PermissionError(13, "the file is not writable", path)
    folder = os.path.dirname(path)
    # a short name of its own: one made from the model's would pass 255 bytes when the model's name is that long
    fd, tmp = tempfile.mkstemp(prefix=".irlint-fix-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
