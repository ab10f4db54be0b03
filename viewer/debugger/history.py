"""Stepping back (`S`, `N`): stand the session at an earlier event as the run stood there going forward.

The recorder keeps the latest events, each numbered; while the target is one of them (and no tensor
recorded up to it was dropped or recorded anew since), the session stands there at once and stepping
forward replays the kept events (breakpoints included) before the run goes on. Otherwise the run
restarts and stops at the target, the user's breakpoints set aside on the way.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from irlint.viewer.debugger.describe import describe_event

from irlint.interp.events import Event, LayerEvaluated, RunFinished
from irlint.interp.stepper import Stepper, bad_value

if TYPE_CHECKING:
    from irlint.viewer.debugger.session import Session


class Rewind:
    """Step back over a session's kept events, or by running it again."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def step_back(self, over: bool = False) -> Event | None:
        """Back to the event before the current one (`S`, the mirror of `s`), or with `over` to the layer
        evaluated before it at this depth or above (`N`, the mirror of `n`: a TI/Loop/If is stepped back
        over as a whole). At the run's first event (or with no such layer before) the log says it is at
        the start."""
        s = self.session
        now, ev = s.position, s.stepper.current
        if ev is None or now <= 1:
            s.log.append(
                "at the start: no event before this one"
                if ev is not None
                else "at the start: the run has not begun (s steps to its first event)"
            )
            return ev
        if not over:
            return self.rewind(now - 1)
        depth = len(ev.frames) if ev.__class__ is not RunFinished else 0
        target = self._layer_before(now, depth)
        if target is None:  # the kept events do not reach back far enough: find it by running again
            found = [0]
            rec = s.recorder

            def scan(e: Event) -> bool:
                if rec.events >= now:
                    return True
                if e.__class__ is LayerEvaluated and len(e.frames) <= depth:
                    found[0] = rec.events
                return False

            s.run_until(
                scan,
                "stepping back: the run restarted to find the layer before "
                "(the events between were dropped from memory)",
            )
            if s.position != now:  # Esc or an error stopped it on the way
                return s.stepper.current
            target = found[0]
        if not target:
            s.log.append(f"at the start: no layer before this one at its depth ({describe_event(ev)})")
            return s.stepper.current
        return self.rewind(target)

    def _layer_before(self, now: int, depth: int) -> int | None:
        """The number of the latest LayerEvaluated before event `now` at most `depth` loops deep among the
        kept events; 0 if there is none since the run's start, None if the kept events do not tell."""
        rec = self.session.recorder
        with rec.lock:
            kept = rec.kept
            first = rec.events - len(kept) + 1  # the number of kept[0]
            start = min(now - 1, rec.events)
            newest_first = itertools.islice(reversed(kept), rec.events - start, None)
            for n, e in zip(range(start, first - 1, -1), newest_first):
                if e.__class__ is LayerEvaluated and len(e.frames) <= depth:
                    return n
            return 0 if first <= 1 else None

    def rewind(self, target: int) -> Event | None:
        """Stand at event `target` (before the current one): from the kept events while it is one of them (its
        tensors and every later one are then still recorded), else by restarting the run and stopping there."""
        s, rec = self.session, self.session.recorder
        with rec.lock:
            kept = rec.kept
            first = rec.events - len(kept) + 1
            # values are dropped oldest first: every one recorded after the newest dropped one is still here
            here = first <= target and rec.replaced_at <= target and rec.dropped_at < target
            if here:
                ev = kept[target - first]
                later = list(itertools.islice(kept, target - first + 1, None))
        if not here:
            ev = s.run_until(
                lambda _e: rec.events >= target,
                f"stepping back: the run restarted to stop at event {target} "
                "(its tensors were dropped from memory since)",
            )
            if s.position == target and ev is not None:
                s.log[-1] = f"back to: {s.log[-1]}"
            return ev
        s.install(
            Stepper(
                itertools.chain(self._replaying(target + 1, later), s.source),
                current=ev,
                finished=ev.__class__ is RunFinished,
            )
        )
        rec.cursor = target
        rec.frames = ev.frames if ev.__class__ is not RunFinished else ()
        vbp = s.value_breakpoint()  # a stop there by the NaN/Inf breakpoint showed the bad value
        s.last_bad = bad_value(ev, vbp.nonfinite, vbp.bound) if vbp is not None else None
        s.log.append(f"back to: {describe_event(ev)}")
        return ev

    def _replaying(self, first: int, events: list[Event]) -> Iterator[Event]:
        """Kept events again, numbered from `first`: stepping forward after stepping back (their tensors
        are recorded already). Past the last one, the run's own events follow."""
        rec = self.session.recorder
        for n, ev in enumerate(events, first):
            rec.cursor = n
            rec.frames = ev.frames if ev.__class__ is not RunFinished else ()
            yield ev
        rec.cursor = None
        if self.session.fatal is not None:  # the run ended with this error after the kept events: it ends so again
            raise self.session.fatal
