"""Load a large IR on two cores: a forked child parses the second half of one `<layers>` element
while this process parses everything else, and sends its layers back pickled.

Why: loading is three quarters of `irlint check` on a 100,000-layer model, almost all of it
Python work in expat's callbacks, and a CI machine has a second core idle (docs/performance.md).
Unpickling half a model takes a tenth of the time parsing it does.

The room has three parts, and `load_into` is its one door (the loader calls nothing else):
- `planner`: where to split, guessed by a byte scan (the first `<layer` after the middle and the
  `<layers>` holding it);
- `child`: the fork, the child's parse of its part, and the parent's parse around it, which checks
  the guess before it adopts the part; both use a reader only through `reader.PartialParse`;
- `codec`: the pickling of the part, its reducers derived from the model's dataclass fields.

The result is exactly the serial one: the same model, diagnostics and locations (offsets into the
file either way). Nothing outside this package knows whether a fork happened.
"""

from __future__ import annotations

import os
from typing import IO

from irlint.ir.reader import PartialParse
from irlint.ir.source import SourceMap, file_reader
from irlint.ir.twocore import planner
from irlint.ir.twocore.child import feed, feed_split

__all__ = ["load_into"]


def load_into(reader: PartialParse, src: SourceMap, f: IO[bytes], path: str, chunk: int, *,
              two_cores: bool = False, split_at: int | None = None) -> bool:
    """Feed the whole file `f` (opened from `path`) to `reader` and the line index `src`, a part of it
    parsed by a forked child if `two_cores` and the file is large; True if the child's part was used.
    `split_at` (tests) splits at the first `<layer` from that offset, whatever the size."""
    where = None
    if split_at is not None or two_cores:
        size = os.fstat(f.fileno()).st_size
        if split_at is not None or size >= planner.MIN_BYTES:
            where = planner.find_split(file_reader(path), size, split_at)
    if where is None:
        feed(f, reader, src, 0, None, chunk)
        return False
    return feed_split(f, path, where, reader, src, chunk)
