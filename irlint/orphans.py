"""Child processes that end with irlint, however irlint ends: none is left running behind it.

Three ways a child could outlive irlint, and what closes each:

- irlint is interrupted (Ctrl-C, SIGTERM, SIGHUP: `irlint.cli.interrupts` raises in the main thread)
  or fails while it waits: `run_child` kills and reaps its child before the exception goes on
  (`subprocess.run` does; the graphviz package's own pipe writes `dot`'s input with a bare `Popen`
  and leaves it running). The `check -j` pool and the forked helpers kill theirs the same way.
- irlint is killed (SIGKILL from CI's own timeout, an OOM kill) and runs no code at all: on Linux
  every child asks the kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG): `run_child`'s
  children before they exec, forked children (`irlint.forksafe.fork`, the `-j` workers) at once,
  the OpenVINO worker of `compare` (`irlint.comparison.ov_child`) first thing. Elsewhere nothing changes.
- A child started by another thread: the kernel sends the signal when that *thread* ends, so
  children are started from the thread that waits for them.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import cache

PR_SET_PDEATHSIG = 1


@cache
def _prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up once in the parent (a forked child then only calls it)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


def prepare() -> None:
    """Look up what `die_with_parent` needs, in the parent: a forked child then only makes the call."""
    _prctl()


def die_with_parent() -> bool:
    """Ask for SIGKILL when the parent process dies; True when the kernel took the request. A parent that
    died before the request leaves this process adopted: it then exits at once."""
    prctl = _prctl()
    if prctl is None:
        return False
    parent = os.getppid()
    ok = prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    if ok and os.getppid() != parent:  # the parent died between fork and the request
        os._exit(1)
    return ok


def run_child(cmd: Sequence[str], data: bytes, timeout: float | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run `cmd` with `data` on its stdin, its stdout and stderr captured, as a child that ends with irlint:
    killed and reaped when the wait is interrupted or fails, killed by the kernel if irlint dies."""
    return subprocess.run(
        list(cmd), input=data, capture_output=True, timeout=timeout, check=False, preexec_fn=before_exec()
    )


def before_exec() -> Callable[[], object] | None:
    """The `preexec_fn` for `subprocess` that has the child killed with irlint from before it runs anything
    (None where the kernel has no such request)."""
    return die_with_parent if _prctl() is not None else None
