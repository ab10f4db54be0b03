"""Safe paths for the CLI: inputs must be regular files, outputs must never be an input, writes are atomic.

Why: irlint runs in CI on files it does not trust and on paths typed in a hurry. Reading a FIFO or a
device blocks forever or never ends (`/dev/zero`); writing `-o` onto the model (directly, through a
symlink or a hard link) destroys it. So every path irlint reads is checked to be a regular file
before it is opened, every output is checked against every input before anything runs, and an
output is written to a temporary file in the target folder and renamed over the target only once
it is complete (a failed or interrupted run leaves no half-written file).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from typing import IO

from irlint.cli.command import UsageError

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def regular_file(path: str, what: str, max_bytes: int | None = None) -> os.stat_result:
    """Stat `path` (following symlinks) and refuse anything but an existing regular file (exit 2).

    Called before a path is opened: a FIFO would block the open or the read forever, a device
    would be read without end, and a file over `max_bytes` would be read into memory whole.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UsageError(f"{what} {path}: no such file") from None
    except OSError as e:
        raise UsageError(f"{what} {path}: cannot read ({e.strerror or e})") from None
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{what} {path} is {kind_of(st.st_mode)}; irlint reads only regular files")
    if max_bytes is not None and st.st_size > max_bytes:
        raise UsageError(f"{what} {path} is {st.st_size} bytes, more than the {max_bytes} irlint reads")
    return st


def _identity(path: str) -> tuple[str, tuple[int, int] | None]:
    """The resolved path and, if the file exists, its (device, inode): hard links and symlinks alike."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return real, None
    return real, (st.st_dev, st.st_ino)


def check_outputs(outputs: Iterable[tuple[str, str | None]], inputs: Iterable[tuple[str, str | None]]) -> None:
    """Refuse (exit 2), before anything runs, an output that is or resolves to an input or to another
    output, that is an existing non-regular file (`/dev/null` would be replaced by the rename), or
    whose folder does not exist. `outputs` and `inputs` are (option, path) pairs; None paths are skipped.
    """
    ins = [(opt, p, *_identity(p)) for opt, p in inputs if p]
    seen: list[tuple[str, str, str, tuple[int, int] | None]] = []
    for opt, path in outputs:
        if not path:
            continue
        real, ident = _identity(path)
        for other_opt, other, other_real, other_ident in ins + seen:
            if real == other_real or (ident is not None and ident == other_ident):
                role = "an input" if (other_opt, other, other_real, other_ident) in ins else "another output"
                raise UsageError(f"{opt} {path} would overwrite {role} ({other_opt} {other}); "
                                 "irlint never writes over a file it reads")
        if os.path.lexists(real) or os.path.exists(path):
            try:
                st = os.stat(real)
            except OSError as e:
                raise UsageError(f"{opt} {path}: cannot write ({e.strerror or e})") from None
            if not stat.S_ISREG(st.st_mode):
                raise UsageError(f"{opt} {path} is {kind_of(st.st_mode)}; irlint writes only regular files")
        folder = os.path.dirname(real) or "."
        if not os.path.isdir(folder):
            raise UsageError(f"{opt} {path}: the directory {os.path.dirname(path) or '.'} does not exist")
        if not os.access(folder, os.W_OK):
            raise UsageError(f"{opt} {path}: the directory {os.path.dirname(path) or '.'} is not writable")
        seen.append((opt, path, real, ident))


def atomic_write(path: str, write: Callable[[IO[bytes]], None]) -> None:
    """Call `write` on a temporary file in `path`'s folder, then rename it over `path` (symlinks are
    followed: the file they point at is replaced). On any failure the temporary file is removed and
    `path` is untouched. An OSError becomes a UsageError naming the path (exit 2)."""
    real = os.path.realpath(path)
    folder = os.path.dirname(real) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=".irlint-", suffix=".tmp", dir=folder)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, real)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
        raise


def write_text(path: str, text: str) -> None:
    atomic_write(path, lambda f: f.write(text.encode("utf-8")))
