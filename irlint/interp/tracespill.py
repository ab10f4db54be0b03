"""Where a trace puts what passes its budget: values and their bookkeeping on disk, nothing per tensor in
memory.

A loop body's tensor spills once per iteration, so a long loop spills millions of tiny tensors. Each
one kept a key, a position and statistics in Python objects (about 1 KB a tensor, more than the
values), so a trace of a 10^6-iteration loop grew by gigabytes past its budget. Here a spilled tensor
of a *series* (one recorded tensor of a layer: the same key around its iterations, the same dtype and
shape) is appended to its series' two files: its values as raw bytes (the series' rows, as format 2
stores them) and an int64 row of its recording position and iteration numbers (format 2's index). In
memory there is one small object per series; the keys are made again from the series' names and the
index when the trace is read by key. Saving copies each series' files into the `.npz` in chunks.

Tensors that are no series row (recorded alone by `Trace.record`, iterations that are not numbers,
strings and other non-numeric types) are appended as `.npy` records to segment files, one key and
position each in memory.
"""

from __future__ import annotations

import contextlib
import errno
import tempfile
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from irlint.ops.misc.strings import for_npz

SEGMENT = 256 * 1024**2  # bytes of `.npy` records per segment file (one file per tensor made 10^6 files)
FLUSH = 1024**2  # bytes of series rows buffered in memory (all series together) before they are appended
CHUNK = 64 * 1024**2  # bytes of a series read back at once (saving, reading by key)
STATS_CHUNK = 8 * 1024**2  # about the bytes the statistics of a chunk of rows take while computed


def rows_per_chunk(row_bytes: int, size: int) -> int:
    """How many rows of a series to stack or read at once: at most CHUNK bytes of values, and at most
    about STATS_CHUNK bytes while their statistics are computed (float64 copies of the values, masks, 40
    bytes of statistics a row: tiny rows must not make a 64 MiB chunk of 16 million rows)."""
    return max(1, min(CHUNK // max(row_bytes, 1), STATS_CHUNK // (24 * size + 96)))
# What the store holds in memory (tracemalloc, numpy 2.4, CPython 3.12), counted against the budget:
SERIES_BYTES = 1024  # a series: its object, names, buffers and its place in the lookup table
SINGLE_BYTES = 320  # a lone spilled tensor: its key (plus its length), position tuple and log entry


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


@contextlib.contextmanager
def _spilling(store: SpillStore) -> Iterator[None]:
    """Writes to the spill folder: an OSError says it happened there, and a full disk says so and what helps
    (it would otherwise reach the command as an unexplained OSError, an internal error)."""
    try:
        yield
    except OSError as e:
        folder = store._dir.name if store._dir is not None else tempfile.gettempdir()
        why = f"{e.strerror or e} while spilling the trace to {folder}"
        if e.errno in DISK_FULL:
            why += ": free space there, point TMPDIR at a larger disk, or raise --trace-budget to keep more in memory"
        raise OSError(e.errno, why) from e


@dataclass(slots=True)
class Series:
    """The spilled rows of one recorded tensor of a layer (`pre`@iterations`post`, `depth` iterations)."""

    number: int
    pre: str
    post: str
    depth: int
    dtype: np.dtype
    shape: tuple[int, ...]
    row_bytes: int
    rows: int = 0  # rows on disk and in the buffers
    values: bytearray = field(default_factory=bytearray)  # rows not yet appended to the file
    index: array = field(default_factory=lambda: array("q"))  # (position, iterations...) per buffered row

    def key(self, its: Any) -> str:
        return self.pre + ("@" + ".".join(map(str, its)) if len(its) else "") + self.post


class SpillStore:
    """The on-disk part of a trace, in a temporary folder made on the first spill."""

    def __init__(self) -> None:
        self._dir: tempfile.TemporaryDirectory | None = None
        self.series: dict[tuple[Any, ...], Series] = {}
        self._buffered = 0
        self.series_rows = 0
        self.singles: dict[str, tuple[int, int]] = {}  # key -> (segment, byte offset)
        self._segments: list[Path] = []
        self._segment: IO[bytes] | None = None
        self._looked_up = -1  # series_rows when `_lookup` was built
        self._lookup: tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]] | None = None

    @property
    def folder(self) -> Path:
        if self._dir is None:
            self._dir = tempfile.TemporaryDirectory(prefix="irlint-trace-")
        return Path(self._dir.name)

    @property
    def count(self) -> int:
        return self.series_rows + len(self.singles)

    # -- writing -----------------------------------------------------------------------------------
    def add_row(self, pre: str, post: str, its: tuple[int, ...], position: int, a: np.ndarray) -> int:
        """Append `a` as a row of its series; returns the bytes this added to memory (a new series)."""
        sk = (pre, post, len(its), a.dtype.str, a.shape)
        s = self.series.get(sk)
        added = 0
        if s is None:
            s = self.series[sk] = Series(len(self.series), pre, post, len(its), a.dtype, a.shape, a.nbytes)
            added = SERIES_BYTES
        s.values += a.tobytes() if a.flags.c_contiguous else np.ascontiguousarray(a).tobytes()
        s.index.append(position)
        s.index.extend(its)
        s.rows += 1
        self.series_rows += 1
        self._buffered += a.nbytes + 8 * (1 + len(its))
        if self._buffered >= FLUSH:
            self.flush()
        return added

    def add_single(self, k: str, a: np.ndarray) -> int:
        """Append `a` as a `.npy` record (a string tensor as an 'S' array); returns the bytes its key took."""
        with _spilling(self):
            f = self._segment
            if f is None or f.tell() >= SEGMENT:
                if f is not None:
                    f.close()
                self._segments.append(self.folder / f"{len(self._segments)}.npys")
                f = self._segment = open(self._segments[-1], "wb")  # noqa: SIM115  (closed by close())
            at = f.tell()
            np.lib.format.write_array(f, for_npz(a), allow_pickle=False)
        self.singles[k] = (len(self._segments) - 1, at)
        return SINGLE_BYTES + len(k)

    def flush(self) -> None:
        """Append every series' buffered rows to its files."""
        with _spilling(self):
            for s in self.series.values():
                if s.index:
                    base = self.folder / f"s{s.number}"
                    with open(base.with_suffix(".values"), "ab") as f:
                        f.write(s.values)
                    with open(base.with_suffix(".index"), "ab") as f:
                        f.write(s.index.tobytes())
                    s.values = bytearray()
                    s.index = array("q")
            self._buffered = 0
            if self._segment is not None:
                self._segment.flush()

    # -- reading -----------------------------------------------------------------------------------
    def index_of(self, s: Series) -> np.ndarray:
        """The series' (position, iterations...) rows, an (n, 1 + depth) int64 array."""
        self.flush()
        path = (self.folder / f"s{s.number}").with_suffix(".index")
        flat = np.fromfile(path, np.int64) if path.exists() else np.empty(0, np.int64)
        return flat.reshape(-1, 1 + s.depth)

    def index_bytes(self, s: Series) -> Iterator[bytes]:
        """The series' index file, FLUSH bytes at a time (int64 rows of position, iterations...). (A read
        of n bytes allocates n bytes whatever the file holds.)"""
        self.flush()
        with open((self.folder / f"s{s.number}").with_suffix(".index"), "rb") as f:
            while data := f.read(FLUSH):
                yield data

    def row(self, s: Series, r: int) -> np.ndarray:
        self.flush()
        with open((self.folder / f"s{s.number}").with_suffix(".values"), "rb") as f:
            f.seek(r * s.row_bytes)
            data = f.read(s.row_bytes)
        return np.frombuffer(data, s.dtype).reshape(s.shape).copy()

    def chunks(self, s: Series) -> Iterator[np.ndarray]:
        """The series' rows in order, `rows_per_chunk` at a time, each an (n, *shape) array."""
        self.flush()
        step = rows_per_chunk(s.row_bytes, int(np.prod(s.shape)))
        path = (self.folder / f"s{s.number}").with_suffix(".values")
        if s.row_bytes == 0:  # empty tensors: no bytes on disk
            for lo in range(0, s.rows, step):
                yield np.empty((min(step, s.rows - lo), *s.shape), s.dtype)
            return
        with open(path, "rb") as f:
            while True:
                data = f.read(step * s.row_bytes)
                if not data:
                    return
                yield np.frombuffer(data, s.dtype).reshape(-1, *s.shape)

    def single(self, k: str) -> np.ndarray:
        seg, offset = self.singles[k]
        if self._segment is not None:
            self._segment.flush()
        with open(self._segments[seg], "rb") as f:
            f.seek(offset)
            return np.lib.format.read_array(f, allow_pickle=False)

    def by_position(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
        """Every spilled row sorted by recording position: (positions, series numbers, row numbers, each
        series' index). Made when the trace is read by key (the reader's memory, not the run's)."""
        if self._lookup is None or self._looked_up != self.series_rows:
            series = sorted(self.series.values(), key=lambda s: s.number)
            indexes = [self.index_of(s) for s in series]
            positions = np.concatenate([ix[:, 0] for ix in indexes]) if indexes else np.empty(0, np.int64)
            numbers = np.concatenate([np.full(len(ix), s.number, np.int64) for s, ix in zip(series, indexes)]) \
                if indexes else np.empty(0, np.int64)
            rows = np.concatenate([np.arange(len(ix)) for ix in indexes]) if indexes else np.empty(0, np.int64)
            order = np.argsort(positions, kind="stable")
            self._lookup = (positions[order], numbers[order], rows[order], indexes)
            self._looked_up = self.series_rows
        return self._lookup

    def close(self) -> None:
        if self._segment is not None:
            self._segment.close()
            self._segment = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


def spilled_row_ok(a: Any, its: tuple[Any, ...]) -> bool:
    """Whether `a` can be a series row: a plain numeric or boolean array at integer iterations."""
    return type(a) is np.ndarray and a.dtype.kind in "biufc" and all(type(k) is int for k in its)

