"""Fork with the stop signals held back, so that an interrupt is raised in irlint's code, not lost.

Why: a signal arriving during `os.fork()` has its Python handler run inside an at-fork hook (the
logging module registers some), where the exception it raises is printed as "Exception ignored"
and dropped: the command would run on after Ctrl-C or SIGTERM. With SIGINT, SIGTERM and SIGHUP
blocked around the fork, a signal stays pending and is raised when they are unblocked, in the
caller's frame (irlint.cli.interrupts turns them into exceptions).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

from irlint import orphans

_STOP = {getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)}


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold the stop signals back in this thread while the block runs (a no-op without pthread_sigmask)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def fork() -> int:
    """`os.fork()` with the stop signals held back; the child starts with the caller's signal mask and
    is killed by the kernel if this process dies (`irlint.orphans`). A signal that arrived meanwhile is
    raised here, in the parent, after the child is killed and reaped."""
    pid = -1
    try:
        with signals_held():
            orphans.prepare()
            pid = os.fork()
            if pid == 0:
                orphans.die_with_parent()
    except BaseException:
        if pid > 0:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        raise
    return pid
