"""Names of defects, shared by the rules that report them and the findings that follow from them.

A finding `claims` the keys of what it reports as wrong and lists under `because` the keys of the
defects it may be a consequence of; shape inference stamps the key of the defect a poisoned value
derives from (irlint/shapes/result.py, `Poison`). irlint/engine/recovery.py folds a consequence
into the finding that claims its cause (docs/architecture.md, "Recovery"). Keys are plain strings
so that diagnostics keep them across the process boundary of irlint/engine/parallel.py.
"""

from __future__ import annotations

from typing import Protocol


class _Pathed(Protocol):
    @property
    def path(self) -> str: ...


def entries(layer: _Pathed, direction: str) -> str:
    """An `<input>`/`<output>` port_map entry of the layer names a wrong port or body layer."""
    return f"{layer.path}:entries:{direction}"


def unmapped(layer: _Pathed, direction: str) -> str:
    """An input/output port of the layer has no port_map entry."""
    return f"{layer.path}:unmapped:{direction}"


def unfed(param: _Pathed) -> str:
    """A body Parameter that no port_map entry feeds."""
    return f"{param.path}:unfed"


def port(layer: _Pathed, port_id: int | None) -> str:
    """A port whose declaration (dims, precision) is wrong."""
    return f"{layer.path}:port:{port_id}"


def layer(layer: _Pathed) -> str:
    """A layer whose own declaration is wrong (a Const feeding a Loop's trip count with a float type)."""
    return f"{layer.path}:layer"


def entry(layer: _Pathed, index: int) -> str:
    """The `index`-th port_map entry of the layer slices or concatenates with invalid attributes."""
    return f"{layer.path}:entry:{index}"


def conflict(layer: _Pathed, direction: str, port_id: int | None) -> str:
    """Two port_map entries of the layer map one external port."""
    return f"{layer.path}:conflict:{direction}:{port_id}"


def trip(layer: _Pathed) -> str:
    """A Loop whose trip count or execution condition is not a valid scalar."""
    return f"{layer.path}:trip"


def op(layer: _Pathed) -> str:
    """An op that rejects its inputs or attributes: what it outputs is poisoned."""
    return f"{layer.path}:op"


def ids(graph_path: str) -> str:
    """A graph level in which two layers share an id (edges that named the other id lose their end)."""
    return f"{graph_path}:ids"


def edges_into(layer: _Pathed) -> str:
    """An edge that was meant to reach the layer names a port or layer that does not exist."""
    return f"{layer.path}:edges-into"


def port_ids(layer: _Pathed) -> str:
    """Two ports of the layer share an id (a renamed port: edges and entries that named it lose it)."""
    return f"{layer.path}:port-ids"
