"""Saving the inspected tensor (`.npy`, written atomically and never over a file the run reads) and
the text the copy key puts on the clipboard. No UI here: the App asks and reports."""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from irlint.cli.paths import atomic_write, check_outputs

MAX_TEXT_ELEMENTS = 100_000  # beyond this the text would be megabytes: save it as .npy instead


def default_npy_name(layer_name: str, iteration: str, port: str) -> str:
    """`Tanh_11032.it0.2.out1.npy`: the layer, the iteration and the port, safe as a file name."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", layer_name).strip("._") or "tensor"
    it = "" if iteration in ("", "-") else f".it{re.sub(r'[^A-Za-z0-9.]+', '_', iteration)}"
    return f"{stem[:80]}{it}.{port}.npy"


def save_npy(path: str, array: np.ndarray, inputs: Iterable[tuple[str, str | None]]) -> None:
    """Write `array` to `path` as .npy, atomically; refuse (UsageError) a path that is one of `inputs`
    (through symlinks and hard links too), a directory, a device or a missing folder."""
    path = npy_path(path)  # np.save would add the suffix: check the file that is really written
    check_outputs([("save", path)], inputs)
    atomic_write(path, lambda f: np.save(f, np.asarray(array), allow_pickle=False))


def npy_path(path: str) -> str:
    return path if path.endswith(".npy") else path + ".npy"


def as_text(array: np.ndarray, header: str) -> str:
    """The whole tensor as text Python reads back with numpy imported as `np` (`np.array([...], dtype=np.float32)`,
    NaN and infinities as `np.nan`, `np.inf`), after a `# header` line."""
    a = np.asarray(array)
    if a.size > MAX_TEXT_ELEMENTS:
        raise ValueError(f"{a.size} elements are too many to copy as text (at most {MAX_TEXT_ELEMENTS}); "
                         "save it as .npy (e) instead")
    body = np.array2string(a, threshold=a.size + 1, separator=", ", max_line_width=120, prefix="np.array(",
                           floatmode="unique" if a.dtype.kind == "f" else "maxprec")
    if a.dtype.kind in "fc":
        body = re.sub(r"\b(nan|inf)\b", r"np.\1", body)  # NaN and infinities as numpy names them
    return f"# {header}\nnp.array({body}, dtype=np.{a.dtype.name})\n"
