"""Where two shapes of one tensor meet: whether they fit, and what OpenVINO makes of the pair.

Two shapes meet at a back edge (the body Result's and the Parameter's), between an If's branches
and its output port, at a port_map entry (the delivered tensor and the body Parameter's
declaration) and wherever a declared port is held against the inferred one. Every such comparison
asks `fits`; inference combines shapes with `union` (an If output whose branch is not known) and
`widen` (a back-edge fixed point). docs/semantics.md, "Where two shapes meet".

- `fits`: equal ranks with compatible dims (a dynamic dim or interval fits any size it holds), or a
  scalar against a 1-D shape whose dim may be 1: both hold one element, and OpenVINO carries one
  into the other (measured: a Loop/TensorIterator back edge from a `[]` Result into a `[1]`
  Parameter compiles and runs on the CPU plugin; an If's `[]` and `[1]` branches give `[1]`).
- `union`: OpenVINO 2026.4's If merge (measured with `openvino.opset8.if_op`).
- `widen`: the least shape covering both, as OpenVINO's Loop widens a back-edge Parameter (a dim
  that differs becomes dynamic, a rank that differs a dynamic rank).
"""

from __future__ import annotations

from irlint.tensor import TensorInfo
from irlint.types import DYNAMIC, Dim, Shape

ONE = Dim.of(1)


def one_element(a: Shape, b: Shape) -> bool:
    """A scalar against a 1-D shape whose dim may be 1 (in either order)."""
    if {len(a), len(b)} != {0, 1}:
        return False
    d = (a or b)[0]
    return d.compatible(ONE)


def fits(a: Shape | None, b: Shape | None) -> bool:
    """True unless both shapes are known and cannot describe one tensor (None is a dynamic rank)."""
    if a is None or b is None:
        return True
    if len(a) != len(b):
        return one_element(a, b)
    return all(x.compatible(y) for x, y in zip(a, b))


def union_shape(a: Shape | None, b: Shape | None) -> Shape | None:
    """The shape of an If output from its two branches' shapes (None: dynamic rank).

    A dynamic rank in either gives a dynamic rank; ranks that differ give a dynamic rank, unless both
    are at most 1-D: then `[1]` for a scalar and `[1]`, a dynamic 1-D shape otherwise (`[]` and `[3]`
    give `[?]`); a dim dynamic (or an interval) in either is dynamic, equal static dims stay,
    different ones become the interval between them (`[2,3]` and `[2,4]` give `[2,3..4]`).
    """
    if a is None or b is None:
        return None
    if len(a) != len(b):
        if max(len(a), len(b)) > 1:
            return None
        d = (a or b)[0]
        return (ONE,) if d == ONE else (DYNAMIC,)
    dims = []
    for x, y in zip(a, b):
        if not (x.is_static and y.is_static):
            dims.append(DYNAMIC)
        else:
            dims.append(x if x == y else Dim(min(x.lo, y.lo), max(x.lo, y.lo)))
    return tuple(dims)


def union(a: TensorInfo, b: TensorInfo) -> TensorInfo:
    """An If output whose branch is not known: `union_shape`, and the element type if both agree."""
    return TensorInfo(a.etype if a.etype == b.etype else None, union_shape(a.shape, b.shape))


def widen(a: TensorInfo, b: TensorInfo) -> TensorInfo:
    """The least tensor description covering both (for back-edge fixed points); values are dropped."""
    etype = a.etype if a.etype == b.etype else (a.etype or b.etype)
    if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
        return TensorInfo(etype, None)
    return TensorInfo(etype, tuple(x if x == y else _hull(x, y) for x, y in zip(a.shape, b.shape)))


def _hull(x: Dim, y: Dim) -> Dim:
    hi = None if x.hi is None or y.hi is None else max(x.hi, y.hi)
    return Dim(min(x.lo, y.lo), hi) if hi is not None else DYNAMIC
