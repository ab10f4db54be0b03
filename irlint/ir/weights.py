"""Lazy access to the .bin: sizes from stat(), the bytes of a Const read only when it is used.

Linting a model must not read its weights (a 5 GB .bin costs nothing), so this object knows the
file size up front and opens the file (read-only) only to read a Const. It never writes.

The bytes a Const uses are copied out of the file (`os.preadv` into a fresh array), never mapped:
a mapped file that is truncated while its pages are in use (another process rewriting the .bin
during a run) kills the process with SIGBUS, silently. A copy cannot change under irlint; a file
that no longer holds the bytes when they are read raises `WeightsChanged` instead.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

import numpy as np

from irlint.types import ElementType


class WeightsError(Exception):
    """Raised by `Weights.array` when the requested bytes cannot be provided."""


class WeightsChanged(WeightsError):
    """The file changed since it was opened (truncated or replaced): the model can no longer be read."""


@dataclass(eq=False)
class Weights:
    """The .bin beside a model. `problem` says why it is unusable (missing, a directory, ...)."""

    path: str
    size: int = 0
    problem: str | None = None
    identity: tuple[int, int] | None = None  # (device, inode) when stat-ed: a file replaced since is another
    _data: np.ndarray | None = field(default=None, repr=False)  # the bytes, for weights held in memory

    @staticmethod
    def open(path: str) -> Weights:
        """Stat the file without reading it; any failure becomes `problem`."""
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return Weights(path, 0, "does not exist")
        except OSError as e:
            return Weights(path, 0, f"cannot be read ({e.strerror or e})")
        if stat.S_ISDIR(st.st_mode):
            return Weights(path, 0, "is a directory")
        if not stat.S_ISREG(st.st_mode):
            return Weights(path, 0, "is not a regular file")
        if not os.access(path, os.R_OK):
            return Weights(path, st.st_size, "is not readable")
        return Weights(path, st.st_size, identity=(st.st_dev, st.st_ino))

    @staticmethod
    def in_memory(label: str, data: bytes) -> Weights:
        """Weights already in memory (an `openvino.Model` serialised by irlint.ir.ovmodel); `label`
        names them in messages."""
        return Weights(label, len(data), None, _data=np.frombuffer(data, dtype=np.uint8))

    @property
    def usable(self) -> bool:
        return self.problem is None

    def contains(self, offset: int, size: int) -> bool:
        return self.usable and offset >= 0 and size >= 0 and offset + size <= self.size

    def raw(self, offset: int, size: int) -> np.ndarray:
        """The bytes [offset, offset+size) as a read-only uint8 array of their own (a copy)."""
        if not self.usable:
            raise WeightsError(f"weights file {self.path} {self.problem}")
        if not self.contains(offset, size):
            raise WeightsError(f"bytes {offset}..{offset + size} lie outside {self.path} ({self.size} bytes)")
        if size == 0:
            return np.zeros(0, np.uint8)
        if self._data is not None:  # in memory: nothing can change under irlint
            return self._data[offset : offset + size]
        # opened per read: a model holds no descriptor (thousands of models are checked in one process);
        # without blocking, so that a FIFO put in its place is found to be another file, not waited on
        flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(self.path, flags)
        except OSError as e:
            raise WeightsChanged(
                f"{self.path} changed while irlint read it: it cannot be opened any more ({e.strerror or e})"
            ) from e
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or (self.identity is not None and (st.st_dev, st.st_ino) != self.identity):
                raise self._changed(offset, size, "it has been replaced by another file")
            if st.st_size < offset + size:
                raise self._changed(offset, size, f"it now has {st.st_size} bytes")
            out = np.empty(size, np.uint8)
            view, done = memoryview(out), 0
            while done < size:  # (Linux reads at most 2 GiB per call)
                try:
                    n = _read_at(fd, view[done:], offset + done)
                except OSError as e:
                    raise WeightsError(f"cannot read {self.path}: {e.strerror or e}") from e
                if n == 0:  # truncated between the fstat and the read
                    raise self._changed(offset, size, "it ended early")
                done += n
        finally:
            os.close(fd)
        out.flags.writeable = False
        return out

    def _changed(self, offset: int, size: int, how: str) -> WeightsChanged:
        return WeightsChanged(
            f"{self.path} changed while irlint read it: it had {self.size} bytes when the model "
            f"was loaded, {how} (bytes {offset}..{offset + size} were wanted)"
        )

    def array(self, offset: int, size: int, etype: ElementType, shape: tuple[int, ...]) -> np.ndarray:
        """A Const's value, read-only, with its numpy (or ml_dtypes) dtype and shape."""
        if etype.name == "string":
            return string_array(self.raw(offset, size), shape)
        if etype.dtype is None:
            raise WeightsError(f"element type {etype.name} cannot be represented in numpy or ml_dtypes")
        count = 1
        for d in shape:
            count *= d
        need = etype.nbytes(count)
        if need == 0:
            return np.zeros(shape, dtype=etype.dtype)  # OpenVINO writes size="1" for an empty Const
        if need != size:
            raise WeightsError(f"shape {list(shape)} of {etype.name} needs {need} bytes, size is {size}")
        data = self.raw(offset, size)
        if etype.bits < 8:
            return unpack(data, etype, count).reshape(shape)
        return np.frombuffer(data, dtype=_little(etype.dtype), count=count).reshape(shape)


def _little(dtype: np.dtype) -> np.dtype:
    """The little-endian form of `dtype`: numpy's own dtype object where that is already little-endian
    (a new instance, equal but not identical, would miss every `dtype is` fast test of the kernels)."""
    little = dtype.newbyteorder("<")
    return dtype if little == dtype else little


def _read_at(fd: int, into: memoryview, offset: int) -> int:
    """Read into `into` from `offset` of `fd`; how many bytes came (0 at the end of the file)."""
    if hasattr(os, "preadv"):
        return os.preadv(fd, [into], offset)
    data = os.pread(fd, min(len(into), 1 << 30), offset)  # (no preadv: one copy more)
    into[: len(data)] = data
    return len(data)


def string_array(data: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A string Const as OpenVINO writes it: i32 count, count + 1 i32 offsets into the characters
    that follow (starting at 0), then the characters; an object array of `bytes`."""
    count = 1
    for d in shape:
        count *= d
    head = 4 * (count + 2)
    if len(data) < head:
        raise WeightsError(f"a string Const of {count} elements needs at least {head} bytes, size is {len(data)}")
    words = np.frombuffer(data[:head], dtype="<i4").astype(np.int64)
    chars = bytes(data[head:])
    offsets = words[1:]
    if words[0] != count or offsets[0] != 0 or (np.diff(offsets) < 0).any() or offsets[-1] != len(chars):
        raise WeightsError(
            f"string Const header (count {words[0]}, offsets {offsets[0]}..{offsets[-1]}) does not "
            f"describe {count} strings in {len(chars)} bytes of characters"
        )
    out = np.empty(count, dtype=object)
    out[:] = [chars[a:b] for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist())]
    return out.reshape(shape)


def unpack(data: np.ndarray, etype: ElementType, count: int) -> np.ndarray:
    """Sub-byte elements as OpenVINO packs them: the first element in the lowest bits of a byte (i4,
    u4, f4e2m1, u2), except u1, whose first element is the highest bit. One element per byte of
    `etype.dtype` comes out (ml_dtypes keeps each in its own byte)."""
    assert etype.dtype is not None and etype.bits in (1, 2, 4)
    bits = etype.bits
    shifts = np.arange(0, 8, bits, dtype=np.uint8)
    if etype.name == "u1":
        shifts = shifts[::-1]
    codes = (np.asarray(data, np.uint8)[:, None] >> shifts) & np.uint8((1 << bits) - 1)
    return codes.reshape(-1)[:count].view(etype.dtype)
