"""Conditional breakpoints typed in the debugger: `layer 12 when iteration == 10`, `when any(isnan(x))`.

The condition is a small expression language, checked node by node against a whitelist before it is
compiled (names, numbers, comparisons, and/or/not, arithmetic, calls of the functions below), so a
typed condition can read tensors but never touch anything else.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import numpy as np

from irlint.ir.model import Model

FUNCTIONS: dict[str, Callable[..., object]] = {
    "abs": np.abs, "max": np.nanmax, "min": np.nanmin, "mean": np.nanmean, "sum": np.sum,
    "any": np.any, "all": np.all, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
    "norm": lambda a: float(np.linalg.norm(np.asarray(a, dtype=np.float64).reshape(-1))),
    "size": np.size, "len": len, "float": float, "int": int,
}
NAMES = ("x", "outputs", "iteration", "iterations", "layer", "nan", "inf", "True", "False")
_ALLOWED = (ast.Expression, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Load,
            ast.Constant, ast.Subscript, ast.Tuple, ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd,
            ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.Pow, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt,
            ast.GtE, ast.In, ast.NotIn)


class ConditionError(ValueError):
    """The typed breakpoint cannot be used (the message says why)."""


def compile_condition(text: str) -> Callable[[dict[str, object]], bool]:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ConditionError(f"cannot parse the condition {text!r}: {e.msg}") from e
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ConditionError(f"{type(node).__name__} is not allowed in a condition")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
            raise ConditionError(f"only these functions can be called: {', '.join(sorted(FUNCTIONS))}")
        if isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id not in NAMES:
            raise ConditionError(f"unknown name {node.id!r}: a condition can use {', '.join(NAMES[:5])}")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, bool, str)):
            raise ConditionError("only numbers and strings are allowed as constants")
    code = compile(tree, "<condition>", "eval")
    scope: dict[str, object] = {"__builtins__": {}, **FUNCTIONS, "nan": float("nan"), "inf": float("inf"),
                                "True": True, "False": False}

    def test(env: dict[str, object]) -> bool:
        with np.errstate(all="ignore"):
            return bool(np.all(eval(code, scope, env)))  # the tree was whitelisted above

    return test


def parse_breakpoint(text: str, model: Model):  # type: ignore[no-untyped-def]
    """`[layer] SPEC [when EXPR]` or `when EXPR` -> a ConditionalBreakpoint (plain layer -> a Breakpoint).

    SPEC is an id path (2/body/7), a layer name, or a bare id when one layer at any level has it.
    """
    from irlint.viewer.debugger.session import Breakpoint, ConditionalBreakpoint

    text = text.strip()
    head, sep, cond = text.partition(" when ") if not text.startswith("when ") else ("", "when", text[5:])
    head = head.strip()
    if head.startswith("layer "):
        head = head[6:].strip()
    path = None
    if head:
        path = _resolve(head, model)
    if not sep:
        if path is None:
            raise ConditionError("type a layer (id path, name or id) and/or `when CONDITION`")
        return Breakpoint(layer=path)
    cond = cond.strip()
    if not cond:
        raise ConditionError("`when` needs a condition, e.g. when max(abs(x)) > 1e3")
    return ConditionalBreakpoint(layer=path, when=cond, test=compile_condition(cond))


def _resolve(spec: str, model: Model) -> str:
    layers = [la for _g, la in model.layers()]
    for la in layers:
        if la.path == spec:
            return la.path
    named = [la for la in layers if la.name == spec]
    if named:
        return named[0].path
    if spec.isdigit():
        by_id = [la for la in layers if la.id == int(spec)]
        if len(by_id) == 1:
            return by_id[0].path
        if by_id:
            raise ConditionError(f"layer id {spec} exists at several levels ({', '.join(la.path for la in by_id)}): "
                                 "give the id path")
    raise ConditionError(f"no layer {spec!r} in the model (an id path like 2/body/7, a name, or an id)")
