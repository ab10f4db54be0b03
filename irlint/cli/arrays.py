"""Reading .npy/.npz files that may be hostile: sizes are checked from the headers before allocating.

Why: `np.load` allocates what an array header declares before reading a byte of data, so a
500-byte .npz whose member claims (or decompresses to) 8 GB is an out-of-memory crash, not an
error message; and a file that is not NumPy at all (an IR .xml given as `--inputs`) makes NumPy
talk about pickles. Here the magic bytes, each zip member's declared size and each array header
are checked first, against a byte budget, and every problem is one clear `UsageError` (exit 2).
"""

from __future__ import annotations

import zipfile
from typing import IO

import numpy as np

from irlint.cli.command import UsageError
from irlint.cli.paths import regular_file

NPY_MAGIC = b"\x93NUMPY"
ZIP_MAGIC = b"PK\x03\x04"


def _header(f: IO[bytes], where: str) -> tuple[tuple[int, ...], np.dtype, int]:
    """Shape, dtype and data bytes from an .npy header (read without touching the data)."""
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _fortran, dtype = np.lib.format.read_array_header_1_0(f)
        elif version in ((2, 0), (3, 0)):
            shape, _fortran, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"unsupported .npy version {version}")
    except (ValueError, OSError, EOFError, SyntaxError) as e:
        raise UsageError(f"{where}: not a valid .npy array ({e})") from None
    if dtype.hasobject:
        raise UsageError(f"{where}: holds Python objects, which irlint never loads (only numeric arrays)")
    count = 1
    for d in shape:
        count *= int(d)
    return shape, dtype, count * dtype.itemsize


def _kind(path: str) -> str:
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(NPY_MAGIC):
        return "npy"
    if head.startswith(ZIP_MAGIC) or head.startswith(b"PK\x05\x06"):
        return "npz"
    shown = head[:8].decode("latin-1").encode("unicode_escape").decode("ascii")
    return f"neither an .npy nor an .npz file (it starts with '{shown}')"


def load_npz(path: str, what: str, budget: int) -> dict[str, np.ndarray]:
    """Every array of an .npz (or a single .npy, keyed by '') after checking all declared sizes fit `budget`."""
    regular_file(path, what)
    try:
        kind = _kind(path)
        if kind == "npy":
            return {"": load_npy(path, what, budget)}
        if kind != "npz":
            raise UsageError(f"{what} {path} is {kind}")
        with zipfile.ZipFile(path) as zf:
            infos = [i for i in zf.infolist() if not i.is_dir()]
            total = 0
            for info in infos:
                if not info.filename.endswith(".npy"):
                    raise UsageError(f"{what} {path}: member {info.filename!r} is not an .npy array")
                total += info.file_size
                if total > budget:
                    raise UsageError(f"{what} {path}: its arrays decompress to more than {budget} bytes "
                                     "(--memory-budget); refused before decompressing")
                where = f"{what} {path}: member {info.filename!r}"
                with zf.open(info) as f:
                    _shape, _dtype, nbytes = _header(f, where)
                if nbytes > info.file_size:
                    raise UsageError(f"{where} declares {nbytes} bytes of data but holds {info.file_size}")
            out = {}
            for info in infos:
                with zf.open(info) as f:
                    out[info.filename[:-4]] = np.lib.format.read_array(f, allow_pickle=False)
            return out
    except UsageError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as e:
        raise UsageError(f"cannot read {what} {path}: {e}") from None


def load_npy(path: str, what: str, budget: int) -> np.ndarray:
    """One .npy array after checking its header's size against the file size and `budget`."""
    st = regular_file(path, what)
    try:
        with open(path, "rb") as f:
            if not f.read(6) == NPY_MAGIC:
                raise UsageError(f"{what} {path} is {_kind(path)}")
            f.seek(0)
            _shape, _dtype, nbytes = _header(f, f"{what} {path}")
            if nbytes > budget:
                raise UsageError(f"{what} {path} holds {nbytes} bytes, more than --memory-budget {budget}")
            if nbytes > st.st_size - f.tell():
                raise UsageError(f"{what} {path} declares {nbytes} bytes of data but the file is shorter")
            f.seek(0)
            return np.lib.format.read_array(f, allow_pickle=False)
    except UsageError:
        raise
    except (OSError, ValueError, EOFError) as e:
        raise UsageError(f"cannot read {what} {path}: {e}") from None
