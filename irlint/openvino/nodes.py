"""Which IR ops the CPU plugin runs as which kind of node (the facts the memory analysis builds on)."""

from __future__ import annotations

# Ops the CPU plugin creates an Eltwise node for: the keys of Eltwise::getInitializers() in
# src/plugins/intel_cpu/src/nodes/eltwise.cpp (with the opset names of the internal SwishNode, PowerStatic
# and LeakyRelu nodes they come from).
UNARY_ELTWISE = frozenset(
    {
        "Relu",
        "ReLU",
        "Gelu",
        "Elu",
        "Tanh",
        "Sigmoid",
        "Abs",
        "Sqrt",
        "Clamp",
        "Exp",
        "Swish",
        "HSwish",
        "Mish",
        "HSigmoid",
        "Round",
        "Erf",
        "SoftPlus",
        "SoftSign",
        "Log",
        "Negative",
        "Floor",
        "Ceiling",
        "LogicalNot",
        "IsFinite",
        "IsInf",
        "IsNaN",
        "BitwiseNot",
    }
)
BINARY_ELTWISE = frozenset(
    {
        "Add",
        "Subtract",
        "Multiply",
        "Divide",
        "SquaredDifference",
        "Maximum",
        "Minimum",
        "Mod",
        "FloorMod",
        "Power",
        "Equal",
        "NotEqual",
        "Greater",
        "GreaterEqual",
        "Less",
        "LessEqual",
        "LogicalAnd",
        "LogicalOr",
        "LogicalXor",
        "PRelu",
        "BitwiseAnd",
        "BitwiseOr",
        "BitwiseXor",
        "BitwiseLeftShift",
        "BitwiseRightShift",
    }
)
ELTWISE = UNARY_ELTWISE | BINARY_ELTWISE | {"Select", "FakeQuantize"}

# Ops the plugin runs as a Reshape node, which computes nothing: its output is its input's memory
# (nodes/reshape.cpp, Reshape::initSupportedPrimitiveDescriptors sets the output in place of input 0, and
# isExecutable() is false). One that keeps the shape is removed before (NopElimination).
VIEWS = frozenset({"Reshape", "Squeeze", "Unsqueeze"})

# Binary ops measured to write their result over input 0's memory in a back edge's chain: Add and
# Multiply. (Subtract and Divide are decomposed before the plugin into an Add of a Negative / a Multiply of
# a Power, whose Eltwise operand takes the op into its own node: ConvertSubtract, ConvertDivide.)
IN_PLACE_BINARY = frozenset({"Add", "Multiply"})

# Element types the plugin computes as another (its i32 view of i64, f32 of f16): a Convert between two of
# one class is removed (graph_optimizer.cpp, RemoveConvert / the precision the node runs in).
PLUGIN_TYPE = {"i64": "i32", "f16": "f32"}
