"""The status line: one line, never wrapped. Where the full text does not fit its width it is said
shorter (fewer words, then fewer parts), so an If or nested loops never push the inspector down."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from irlint.cli.printing import safe
from irlint.interp.stepper import search_text


def paused_text(session, width: int) -> str:  # type: ignore[no-untyped-def]
    """`paused | iteration 2 of 3 > 1 of 4 | 1 breakpoint | stop at NaN/Inf | ? help`, or shorter."""
    variants = paused_variants(session)
    fits = next((v for v in variants if len(v) <= width), None)
    if fits is not None:
        return fits
    head, brief = variants[-1].split(" | it ", 1)
    head += " | it "  # the innermost levels matter most: the outer ones give way first
    return head + "…" + brief[len(brief) - max(1, width - len(head) - 1) :]


def paused_variants(session) -> list[str]:  # type: ignore[no-untyped-def]
    """The paused state said from the longest to the shortest (`ALTERED paused | it 2/3>then>0/4`)."""
    totals = session.loop_totals()
    its = " > ".join(totals) or "-"
    # nested loops and If branches, said shorter: `2/3>then>0/4`
    brief = ">".join(t.replace(" of ", "/").removesuffix(" branch") for t in totals) or "-"
    nbp = len(session.breakpoints)
    state = "finished" if session.stepper.finished else "paused"
    if getattr(session, "altered", False):
        state = f"ALTERED {state}"  # a value was set by hand (=): what follows is a what-if
    vbp = session.value_breakpoint()
    watch = f" | stop at {search_text(True, vbp.bound)}" if vbp is not None else ""
    bps = f"{nbp} breakpoint{'s' if nbp != 1 else ''}"
    tiny = ""
    if vbp is not None:
        tiny = " | NaN" + (f",|v|>{vbp.bound:g}" if vbp.bound is not None else "")
    variants = [
        f"{state} | iteration {its} | {bps}{watch} | ? help",
        f"{state} | iteration {its} | {bps}{watch}",
        f"{state} | it {its} | {nbp} bp{watch}",
        f"{state} | it {its}{watch}",
        f"{state} | it {its} | {nbp} bp{tiny}",
        f"{state} | it {its}{tiny}",
        f"{state} | it {its}",
        f"{state} | it {brief} | {nbp} bp{tiny}",
        f"{state} | it {brief}{tiny}",
        f"{state} | it {brief}",
    ]
    return variants


def running_text(session, width: int) -> str:  # type: ignore[no-untyped-def]
    variants = running_variants(session)
    return next((v for v in variants if len(v) <= width), variants[-1])


def running_variants(session) -> list[str]:  # type: ignore[no-untyped-def]
    """A running command's progress from the longest to the shortest (`running, it 2/3>0/4`)."""
    p = session.progress
    where = " > ".join(session.loop_totals(p.frames)) or "-"
    brief = ">".join(t.replace(" of ", "/").removesuffix(" branch") for t in session.loop_totals(p.frames)) or "-"
    return [
        f"running: {p.events} events, iteration {where} (Esc stops)",
        f"running: {p.events} ev, it {where} (Esc)",
        f"running: {p.events} ev, it {brief} (Esc)",
        f"running, it {brief}",
    ]


MIN_STATE = 24  # columns the run's state keeps beside a note: its outer loops give way first


class StatusLine(Static):
    def __init__(self, **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__("", markup=False, **kw)

    def show_lint(self, diagnostics) -> None:  # type: ignore[no-untyped-def]
        """The lint-error screen's two lines: what happened, which keys."""
        errors = sum(d.severity.value == "error" for d in diagnostics)
        self.styles.height = 2
        self.update(
            Text(
                f"{errors} lint error{'s' if errors != 1 else ''} in {len(diagnostics)} findings: "
                "not run\nUp/Down: finding, layer, XML; q quits",
                style="bold",
            )
        )

    def show(self, session, busy: bool, width: int, note: str = "", short_note: str = "") -> None:  # type: ignore[no-untyped-def]
        """The run's state; `note` (a search's `/lstm 2/9 (n/N, Esc)`) goes first."""
        self.update(Text(safe(status_text(session, busy, width, note, short_note)), no_wrap=True, overflow="ellipsis"))


def status_text(session, busy: bool, width: int, note: str = "", short_note: str = "") -> str:  # type: ignore[no-untyped-def]
    """The status line in `width` columns: `note` (a search, a scope) first, then the run's state. Where
    they do not fit together (the state at its shortest, or in MIN_STATE columns: `ALTERED paused | it
    …>1/2`) the note is said shorter (`short_note`: `/lstm 2/9 | scope 2/3`), then left out."""
    shortest = (running_variants(session) if busy else paused_variants(session))[-1]
    need = min(len(shortest), MIN_STATE)
    for n in dict.fromkeys((note, short_note or note, "")):
        rest = width - len(n) - 3 if n else width
        if not n or rest >= need:
            break
    text = running_text(session, rest) if busy else paused_text(session, max(12, rest))
    return f"{n} | {text}" if n else text
