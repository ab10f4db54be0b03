"""Ctrl-C, SIGTERM and SIGHUP end a command the same way: cleaned up, in one line, with exit 128 + signal.

Why: by default SIGTERM and SIGHUP kill Python without unwinding, so `finally` blocks never run
(a `run --trace` spill folder stays in TMPDIR, `check -j` workers keep running), and Ctrl-C reaches
every process of the terminal's process group, so forked workers print their own KeyboardInterrupt
tracebacks. While a command runs, the three signals raise `Interrupted` (a KeyboardInterrupt) in the
main process, once: later ones are ignored until it has cleaned up. A process forked from it (a
`check -j` worker, a parsing or shape-inference helper) exits at once and silently, as its parent
is ending too and kills or reaps it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """A signal asking irlint to stop; `code` is the exit code a shell expects (130, 143, 129)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.code = 128 + signum


class _State:
    received: int | None = None  # the first signal received while handling was on


def received() -> int | None:
    """The signal that interrupted the command, if one did (an error raised while unwinding after it is
    a consequence of the interrupt, not a bug)."""
    return _State.received


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """Turn SIGINT/SIGTERM/SIGHUP into `Interrupted` while the block runs (main thread only; elsewhere,
    as when a test calls the CLI from a thread, the block runs with the handlers it has)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()
    _State.received = None

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a forked worker: its parent cleans up, nothing to print here
            os._exit(128 + signum)
        if _State.received is not None:
            return  # already unwinding: let the cleanup finish
        _State.received = signum
        raise Interrupted(signum)

    with _handlers(on_signal):
        yield


@contextlib.contextmanager
def repeated() -> Iterator[None]:
    """Inside `handled()`: every signal raises `Interrupted` (naming the first), not only the first, around
    code that may swallow one (Model Explorer waits for its server in a loop that catches everything);
    `_thread.interrupt_main()` then raises it again too. Forked processes are left to `handled()`."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if _State.received is None:
            _State.received = signum
        raise Interrupted(_State.received)

    with _handlers(on_signal):
        yield


@contextlib.contextmanager
def _handlers(on_signal: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """`on_signal` for SIGNALS while the block runs, the handlers before it restored after."""
    previous = {s: signal.getsignal(s) for s in SIGNALS}
    for s in SIGNALS:
        signal.signal(s, on_signal)
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


def message(signum: int) -> str:
    """The one line printed when `signum` ended the command."""
    return "irlint: interrupted" if signum == signal.SIGINT else f"irlint: terminated ({signal.Signals(signum).name})"
