"""Child processes that end with their parent: a hung or crashed OpenVINO must not outlive a killed run.

`subprocess.run(..., timeout=...)` kills its child when the timeout passes, but when the parent itself
is killed (SIGKILL from CI's own timeout, an OOM kill) the child is left running, hung in OpenVINO or
holding memory. On Linux a child asks the kernel to send it SIGKILL when its parent dies
(PR_SET_PDEATHSIG); elsewhere nothing changes.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent() -> bool:
    """Ask for SIGKILL when the parent process dies; True when the kernel took the request. A parent that
    died before the request leaves this process adopted: it then exits at once."""
    if not sys.platform.startswith("linux"):
        return False
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        ok = libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False
    if ok and os.getppid() != parent:  # the parent died between fork and the request
        os._exit(1)
    return ok
