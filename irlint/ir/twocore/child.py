"""The two processes: the forked child parsing its part, and the parent feeding the file around it.

The child builds the same parser state from a made-up prefix padded with spaces to the split
offset (so expat's byte offsets are the file's), parses from the split to that `</layers>`, and
stops there. The parent parses up to the split, then checks that the element open there really is
the `<layers>` the child assumed. Only then does it adopt the child's part and feed its own parser
spaces in place of the child's bytes; otherwise, or if the child failed in any way, it parses the
rest itself. Both sides use a reader only through `irlint.ir.reader.PartialParse`.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from typing import IO

from irlint import forksafe
from irlint.ir.reader import LayersPart, PartialParse, Reader
from irlint.ir.source import SourceMap
from irlint.ir.twocore import codec
from irlint.ir.twocore.planner import SplitPoint


class Child:
    """A forked process parsing one part; `result` collects it (None if it failed), `cancel` stops it."""

    def __init__(self, pid: int, pipe: IO[bytes]) -> None:
        self.pid, self.pipe = pid, pipe

    @staticmethod
    def start(path: str, where: SplitPoint, chunk: int) -> Child | None:
        """Fork a child parsing the part from `where` (None where fork is unavailable or fails)."""
        if not hasattr(os, "fork"):
            return None
        try:
            read_end, write_end = os.pipe()
            pid = forksafe.fork()  # an interrupt meanwhile is raised here, not lost
        except OSError:
            return None
        if pid == 0:  # never returns
            code = 1
            try:
                os.close(read_end)
                with os.fdopen(write_end, "wb") as out:
                    part = _parse_part(path, where, chunk)
                    codec.Pickler(out).dump(part)
                code = 0 if part is not None else 1
            finally:
                os._exit(code)  # no cleanup: the parent owns stdout and the model
        os.close(write_end)
        return Child(pid, os.fdopen(read_end, "rb"))

    def result(self, src: SourceMap) -> LayersPart | None:
        """The child's part (its locations read from `src`), or None if it failed."""
        try:
            part = codec.Unpickler(self.pipe, src).load()
        except Exception:  # a failed child writes nothing or a partial pickle
            part = None
        status = self._reap()
        return part if status == 0 and isinstance(part, LayersPart) else None

    def cancel(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> int:
        self.pipe.close()
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            return -1
        return os.waitstatus_to_exitcode(status)


def _parse_part(path: str, where: SplitPoint, chunk: int) -> LayersPart | None:
    """The child's parse: the made-up prefix, spaces up to `where.at`, then the file until the `</layers>`."""
    reader: PartialParse = Reader(SourceMap(path))
    prefix = where.prefix()
    if len(prefix) > where.at:
        return None
    try:
        reader.feed(prefix)
        pad(reader.feed, where.at - len(prefix), chunk)
        with open(path, "rb") as f:
            return reader.parse_tail(_chunks(f, where.at, chunk))  # None: the file ended inside the <layers>
    except Exception:  # malformed or refused: the parent parses it and reports it
        return None


def _chunks(f: IO[bytes], start: int, chunk: int) -> Iterator[bytes]:
    f.seek(start)
    while data := f.read(chunk):
        yield data


def pad(feed: Callable[[bytes], object], n: int, chunk: int) -> None:
    """Feed `n` spaces (character data between elements, which no handler reads)."""
    spaces = b" " * min(n, chunk)
    while n > 0:
        feed(spaces[:n])
        n -= len(spaces)


# -- the parent -----------------------------------------------------------------------------------


def feed(f: IO[bytes], reader: PartialParse, src: SourceMap, start: int, end: int | None, chunk: int,
         blank: bool = False) -> int:
    """Parse the file from `start` to `end` (None: its end); returns where it stopped. `blank`: the
    line index reads the bytes, the parser gets as many spaces (a part another process parsed)."""
    parse = reader.feed
    spaces = b" " * chunk if blank else b""
    f.seek(start)
    pos = start
    while end is None or pos < end:
        data = f.read(chunk if end is None else min(chunk, end - pos))
        if not data:
            break
        src.feed(data)
        parse(spaces[:len(data)] if blank else data)
        pos += len(data)
    return pos


def feed_split(f: IO[bytes], path: str, where: SplitPoint, reader: PartialParse, src: SourceMap,
               chunk: int) -> bool:
    """Parse the whole file with a child parsing the part from `where`; True if the child's part was used."""
    child = Child.start(path, where, chunk)
    if child is None:
        feed(f, reader, src, 0, None, chunk)
        return False
    try:
        reached = feed(f, reader, src, 0, where.at, chunk)
        part = None
        if reached == where.at and reader.open_layers_owner() == where.owner:
            part = child.result(src)
        else:
            child.cancel()
        child = None
        if part is None:
            feed(f, reader, src, where.at, None, chunk)
            return False
        reader.adopt(part)
        feed(f, reader, src, where.at, part.end, chunk, blank=True)
        feed(f, reader, src, part.end, None, chunk)
        return True
    finally:
        if child is not None:
            child.cancel()
