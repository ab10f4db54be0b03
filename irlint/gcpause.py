"""Pause the cyclic garbage collector around phases that allocate millions of objects and no cycles.

Loading a large model and running the rules over it create objects by the million; each young
collection then walks the whole growing heap, which made loading 100,000 layers superlinear. The
model and the rules' findings are acyclic, so reference counting frees them; anything cyclic made
meanwhile is collected once the collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# Set by the command line, which owns its process: everything alive after a paused phase (the
# model, its indexes) is moved to the collector's permanent generation (`gc.freeze`), so no later
# collection walks it again. Library callers keep the default: freezing is a process-wide decision.
freeze_after = False


@contextmanager
def paused_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze_after:
            gc.freeze()
        if enabled:
            gc.enable()
