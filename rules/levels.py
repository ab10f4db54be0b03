"""Which level holds each body: rules that follow a value out of a body, or ask where a body
Parameter's value comes from, go up through this."""

from __future__ import annotations

from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer, PortMapEntry


def parents(ctx: Context) -> dict[int, tuple[Graph, Layer]]:
    """Each body's level (by identity) -> the level holding its TensorIterator/Loop/If, and that layer."""
    return ctx.memo("body-parents", ctx.model.graph,
                    lambda: {id(sub): (g, layer) for g, layer in ctx.model.layers() for sub in layer.subgraphs()})


def input_entries(owner: Layer, body: Graph) -> list[PortMapEntry]:
    """The input port map entries of `owner` (a TensorIterator/Loop, or an If for its branch `body`)."""
    entries = owner.port_map if owner.body is body else next((b.port_map for b in owner.branches if b.body is body), ())
    return [pe for pe in entries if pe.direction == "input"]
