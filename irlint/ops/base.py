"""The op contract: one class per op, holding both its shape function and its numpy kernel.

Shape inference (`irlint.shapes`) and the interpreter (`irlint.interp`) read the same registry, so an
op's knowledge lives in exactly one module under `irlint/ops/`. A subclass declares:

- `types`: the IR `type` names it handles (``("Relu", "ReLU")``), `versions`: the opsets
  (``("opset1",)``; empty tuple = any version);
- `Attrs`: a frozen dataclass whose fields are the `<data>` attributes, with defaults for the
  optional ones; `bind_attrs` parses the strings into it and reports every bad value;
- `infer(attrs, inputs) -> list[TensorInfo]`: element types and partial shapes of the outputs;
- `compute(attrs, inputs) -> list[np.ndarray]`: the outputs for concrete numpy inputs.

Both raise `OpError` with a user-facing message when the inputs are invalid for the op (wrong rank,
incompatible broadcast, bad axis ...). Constant folding comes for free: when every input of
`infer` carries a small known `value`, the caller runs `compute` on them.
"""

from __future__ import annotations

import dataclasses
import types as pytypes
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from irlint.tensor import TensorInfo


class OpError(Exception):
    """Inputs or attributes that the op cannot accept; the message is shown to the user."""


class NotComputable(OpError):
    """A valid op the interpreter cannot compute (e.g. a Convert to nf4, which numpy and ml_dtypes
    cannot hold): the interpreter's error at run time, never a finding about the IR."""


@dataclass(frozen=True)
class NoAttrs:
    """For ops without attributes."""


# A prepared kernel: the op's inputs in port order -> its outputs (see `Op.prepare`).
Kernel = Callable[[list[np.ndarray]], Sequence[np.ndarray]]


class Op:
    """Base class of every op; subclasses are registered with `@register`."""

    types: ClassVar[tuple[str, ...]] = ()
    versions: ClassVar[tuple[str, ...]] = ()
    Attrs: ClassVar[type] = NoAttrs
    # How many inputs the op takes: (min, max); max None = unbounded.
    arity: ClassVar[tuple[int, int | None]] = (1, 1)
    # False when `infer` looks only at input types and shapes, never at constant values: shape
    # inference then memoises it across layers and reads constants from the .bin only to fold.
    infer_reads_values: ClassVar[bool] = True

    def infer(self, attrs: Any, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        raise NotImplementedError

    def compute(self, attrs: Any, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        raise NotImplementedError

    def prepare(self, attrs: Any, consts: Sequence[np.ndarray | None]) -> Kernel | None:
        """Optional fast kernel for the interpreter's hot loop, bound once per layer and run: `consts`
        holds the value of each input that comes from a Const (else None). It must give the same bits
        as `compute` on valid inputs, may skip its checks (the interpreter calls `compute` to explain
        any exception), must return ndarrays, and may leave numpy's float warnings to the caller.
        None: the interpreter calls `compute`."""
        return None


# ---------------------------------------------------------------------------- attribute binding


def _split_list(text: str) -> list[str]:
    t = text.strip()
    if t == "":
        return []
    return [p.strip() for p in t.split(",")]


def _parse_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def _parse_float(text: str) -> float:
    return float(text.strip())


def _parse_int(text: str) -> int:
    return int(text.strip())


_SCALARS: dict[Any, Any] = {int: _parse_int, float: _parse_float, bool: _parse_bool, str: str}


def _parser_for(tp: Any) -> Any:
    """A function str -> value for a field annotation (int, float, bool, str, tuple[X, ...], X | None)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, pytypes.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return _parser_for(args[0])
    if origin is tuple:
        item = _SCALARS[typing.get_args(tp)[0]]
        return lambda text: tuple(item(p) for p in _split_list(text))
    return _SCALARS[tp]


_HINTS_CACHE: dict[type, dict[str, Any]] = {}


def bind_attrs(cls: type, data: Mapping[str, str]) -> tuple[Any, list[str]]:
    """Build `cls` (an Attrs dataclass) from `<data>` strings; returns (attrs or None, problems).

    Field names use ``_`` where IR uses ``-`` is not needed: IR attribute names are valid Python
    identifiers except a few; a field may declare ``metadata={"ir": "name"}`` to map another name.
    Unknown attributes are ignored (OpenVINO writes extra ones freely).
    """
    hints = _HINTS_CACHE.get(cls)
    if hints is None:
        hints = typing.get_type_hints(cls)
        _HINTS_CACHE[cls] = hints
    values: dict[str, Any] = {}
    problems: list[str] = []
    for f in dataclasses.fields(cls):
        ir_name = f.metadata.get("ir", f.name)
        if ir_name not in data:
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                continue
            text = openvino_fill(cls, ir_name)
            if text is None:
                problems.append(f"required attribute '{ir_name}' is missing")
                continue
        else:
            text = data[ir_name]
        try:
            values[f.name] = _parser_for(hints[f.name])(text)
        except (ValueError, KeyError):
            problems.append(f"attribute {ir_name}={text!r} is not a valid {_type_name(hints[f.name])}")
    if problems:
        return None, problems
    return cls(**values), []


# The attributes OpenVINO's reader fills, by Attrs class and IR name, and where they come from:
# irlint.ops.openvino_fills (which knows the ops through the registry) installs its table with
# `use_fills` when the package is imported, so this module imports no other module of the package.
_FILLS: Mapping[type, Mapping[str, str]] | None = None
_FILL_TABLE: Callable[[], Mapping[type, Mapping[str, str]]] | None = None


def use_fills(table: Callable[[], Mapping[type, Mapping[str, str]]]) -> None:
    """Where `openvino_fill` finds the filled values (called once, on its first use, not at import:
    the table needs every op module loaded)."""
    global _FILL_TABLE, _FILLS
    _FILL_TABLE, _FILLS = table, None


def openvino_fill(cls: type, ir_name: str) -> str | None:
    """The value OpenVINO's reader gives a required attribute missing from `<data>` (measured per op:
    irlint.ops.openvino_fills), as IR text; None where OpenVINO refuses the layer without it."""
    global _FILLS
    if _FILLS is None:
        if _FILL_TABLE is None:  # (irlint.ops installs it on import: not reached through the package)
            return None
        _FILLS = _FILL_TABLE()
    got = _FILLS.get(cls)
    return None if got is None else got.get(ir_name)


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is tuple:
        return f"list of {typing.get_args(tp)[0].__name__}"
    if origin in (typing.Union, pytypes.UnionType):
        return _type_name(next(a for a in typing.get_args(tp) if a is not type(None)))
    return getattr(tp, "__name__", str(tp))
