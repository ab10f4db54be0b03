"""The attributes OpenVINO's reader fills when `<data>` lacks them, with the value it fills.

Measured on openvino 2026.4 by scripts/attribute_defaults.py: for each attribute irlint's op declares
without a default, a layer of that op in an IR OpenVINO wrote had it deleted, and `read_model` and
`compile_model` (CPU) accepted the layer; the value is what the read op reports (`get_attributes`).
Where OpenVINO refuses the layer (at read or compile), the attribute is not listed and stays required
(T210). irlint binds a listed attribute to the value OpenVINO fills, so it computes what OpenVINO
computes, and T217 says the attribute is missing. Listed are the attributes whose filled value does
not depend on the layer (not the rank-sized strides and pads OpenVINO fills with ones and zeros, nor
the sizes of 0 it reports where it takes the size from the inputs); docs/rules-openvino.md shows
every measured attribute.
"""

from __future__ import annotations

from functools import cache

# (op type, irlint op's opsets, attribute) -> the value OpenVINO fills, as IR text
FILLED: dict[tuple[str, str, str], str] = {
    ("Concat", "opset1", "axis"): "0",
    ("Reshape", "opset1", "special_zero"): "false",
    ("DepthToSpace", "opset1", "mode"): "blocks_first",
    ("SpaceToDepth", "opset1", "mode"): "blocks_first",
}


@cache
def fills_by_attrs_class() -> dict[type, dict[str, str]]:
    """FILLED keyed by the Attrs class of irlint's op, as `bind_attrs` looks it up."""
    from irlint.ops.registry import lookup

    out: dict[type, dict[str, str]] = {}
    for (typ, versions, attr), text in FILLED.items():
        op = lookup(typ, versions.split(",")[0])
        if op is not None:
            out.setdefault(op.Attrs, {})[attr] = text
    return out


def filled_missing(layer_type: str, version: str, data: dict[str, str] | object) -> list[tuple[str, str]]:
    """(attribute, value OpenVINO fills) for each listed attribute the layer's `<data>` lacks."""
    from irlint.ops.registry import lookup

    op = lookup(layer_type, version)
    if op is None:
        return []
    fills = fills_by_attrs_class().get(op.Attrs, {})
    return [(a, v) for a, v in fills.items() if a not in data]  # type: ignore[operator]
