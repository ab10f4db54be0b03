"""Which element types the CPU plugin computes in another type, and how many bytes it holds each in.

Before it builds its nodes, the plugin runs OpenVINO's ConvertPrecision pass over the whole model,
bodies included (src/plugins/intel_cpu/src/transformations/transformation_pipeline.cpp): a type its
nodes do not compute is replaced by one they do (i64, u64, u32, i16 and u16 by i32; f64 by f32; f16
by the inference precision, f32 under the f32 hint). A Convert to such a type becomes a Convert to
the replacement and stays unless its input already has that type (a Convert of i32 to i64 becomes
i32 to i32 and goes). At the top level a tensor so computed is converted back before its Result.
"""

from __future__ import annotations

# The type the CPU plugin computes a tensor of each replaced type in (under the f32 inference hint).
EXECUTED_AS: dict[str, str] = {
    "i64": "i32", "u64": "i32", "u32": "i32", "i16": "i32", "u16": "i32", "f64": "f32", "f16": "f32",
}
# Bytes per element of the types the plugin computes tensors in (boolean is held as u8).
_BYTES = {"u8": 1, "i8": 1, "boolean": 1, "bf16": 2, "f32": 4, "i32": 4}
WIDEST = max(_BYTES.values())


def executed_as(etype: str) -> str:
    """The element type the CPU plugin computes a tensor of `etype` in."""
    return EXECUTED_AS.get(etype, etype)


def plugin_bytes(etype: str) -> int | None:
    """Bytes per element of a tensor of `etype` in the CPU plugin's memory, None if not modelled."""
    return _BYTES.get(executed_as(etype))
