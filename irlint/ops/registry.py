"""The op registry: `@register` on an `Op` subclass, `lookup(type, version)` to find it.

Op modules are discovered by walking the `irlint.ops` package once, on first lookup, so adding an
op means adding one module and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from irlint.ops.base import Op

_BY_TYPE: dict[str, list[Op]] = {}
_loaded = False


def register(cls: type[Op]) -> type[Op]:
    """Class decorator: instantiate the op once and index it by each of its type names."""
    op = cls()
    for t in cls.types:
        _BY_TYPE.setdefault(t, []).append(op)
    return cls


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    # (walked by folder, not through the package object: this module depends on base alone)
    for info in pkgutil.walk_packages([str(Path(__file__).parent)], prefix="irlint.ops."):
        if info.name.rsplit(".", 1)[-1] not in ("base", "registry", "openvino_fills"):
            importlib.import_module(info.name)


def _opset_number(version: str) -> int | None:
    return int(version[5:]) if version.startswith("opset") and version[5:].isdigit() else None


def lookup(type_name: str, version: str = "") -> Op | None:
    """The op for a layer's `type` and `version`.

    Exact version first; an op with empty `versions` matches any version; otherwise the op with the
    newest declared opset not newer than the requested one (opsetN re-exports older ops unchanged).
    """
    _load_all()
    candidates = _BY_TYPE.get(type_name, ())
    for op in candidates:
        if version in op.versions:
            return op
    for op in candidates:
        if not op.versions:
            return op
    wanted = _opset_number(version)
    best: tuple[int, Op] | None = None
    for op in candidates:
        for v in op.versions:
            n = _opset_number(v)
            if n is not None and (wanted is None or n <= wanted) and (best is None or n > best[0]):
                best = (n, op)
    return None if best is None else best[1]


def known_types() -> dict[str, list[Op]]:
    """Every registered type name with its ops (for docs and coverage tests)."""
    _load_all()
    return {t: list(ops) for t, ops in sorted(_BY_TYPE.items())}
