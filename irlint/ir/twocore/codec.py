"""Pickling the child's part: model objects as constructor calls, shared objects by name.

Why not plain pickle: the default reduction of a slotted dataclass is a per-slot state dict, far
slower to load than a constructor call, and the part would carry copies of objects the parent
already holds (its source map, the element types, the loader's rules). The reducers are derived
from `dataclasses.fields` of every dataclass in `irlint.ir.model`, so a field added to a model
class travels with no change here (tests/ir/test_twocore_codec.py checks every class).
"""

from __future__ import annotations

import copyreg
import inspect
import operator
import pickle
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from types import MappingProxyType
from typing import IO, Any

from irlint.ir import codes, model
from irlint.ir.source import SourceMap
from irlint.rule import Rule
from irlint.types import ELEMENT_TYPES, ElementType

Reduction = tuple[Callable[..., Any], tuple[Any, ...]]

MODEL_CLASSES: tuple[type, ...] = tuple(
    cls for _, cls in inspect.getmembers(model, inspect.isclass)
    if is_dataclass(cls) and cls.__module__ == model.__name__)

# The unpickler keeps every argument tuple until the end of the load. A layer's would be about as
# large as the `Layer` (one item per field, the same 16-byte size class at 13 fields): freed, they
# would leave holes between the layers that nothing reuses (7 MB at 100,000 layers). One item more
# (the class, last) makes the tuple 16 bytes larger than the object, whatever the number of fields,
# so the tuples fill pools of their own.
_PADDED = (model.Layer,)

_LOADER_RULES = {r.code: r for r in vars(codes).values() if isinstance(r, Rule)}


def reducer(cls: type, pad: bool = False) -> Callable[[Any], Reduction]:
    """Reduce a dataclass to its constructor called with every field in order (`pad`: see `_PADDED`)."""
    names = tuple(f.name for f in fields(cls))
    get: Callable[[Any], tuple[Any, ...]]
    if len(names) > 1:
        get = operator.attrgetter(*names)  # one C call for all fields
    else:  # attrgetter of one name gives the value, not a tuple
        def get(o: Any) -> tuple[Any, ...]:
            return tuple(getattr(o, n) for n in names)
    if pad:
        return lambda o: (_padded, (*get(o), cls))
    return lambda o: (cls, get(o))


def _padded(*args: Any) -> Any:
    return args[-1](*args[:-1])


def _proxy(d: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(d)


DISPATCH: dict[type, Callable[[Any], Any]] = {
    **copyreg.dispatch_table,
    MappingProxyType: lambda m: (_proxy, (dict(m),)),
    **{cls: reducer(cls, cls in _PADDED) for cls in MODEL_CLASSES},
}


class Pickler(pickle.Pickler):
    """Shared objects are sent by name: the source map, element types and the loader's rules."""

    dispatch_table = DISPATCH

    def __init__(self, out: IO[bytes]) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)

    def persistent_id(self, obj: Any) -> tuple[str, str] | None:
        if isinstance(obj, SourceMap):
            return ("src", "")
        if isinstance(obj, ElementType):
            return ("type", obj.name)
        if isinstance(obj, Rule):
            return ("rule", obj.code)
        return None


class Unpickler(pickle.Unpickler):
    """The source map sent by name becomes `src`, the parent's own."""

    def __init__(self, data: IO[bytes], src: SourceMap) -> None:
        super().__init__(data)
        self.src = src

    def persistent_load(self, pid: Any) -> Any:
        kind, name = pid
        if kind == "src":
            return self.src
        if kind == "type":
            return ELEMENT_TYPES[name]
        if kind == "rule":
            return _LOADER_RULES[name]
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
