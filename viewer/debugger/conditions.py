"""Conditional breakpoints typed in the debugger: `layer 12 when iteration == 10`, `when any(isnan(x))`.

The condition is a small expression language, checked node by node against a whitelist before it is
compiled (names, numbers, comparisons, and/or/not, arithmetic, calls of the functions below), so a
typed condition can read tensors but never touch anything else. `x.sum()` and the other methods in
METHODS are no attribute access at run time: the checked tree has every `V.m(...)` rewritten into a
call of irlint's own function for `m` (and `V.shape`, `V.ndim`, `V.size` likewise), so no attribute
of any object is ever looked up, whatever `V` is. Arithmetic goes through numpy's ufuncs the same
way (`a * b` is irlint's checked `multiply(a, b)`), and comparisons through checked functions
(`a < b` is `lt(a, b)`), so no Python integer grows without bound, no text is repeated, and no
elementwise result has more than MAX_ELEMENTS elements: an expression costs at most a few passes over
tensors of that size. The debugger's expression console (`:`) uses this evaluator too.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Mapping

import numpy as np

from irlint.ir.model import Model

FUNCTIONS: dict[str, Callable[..., object]] = {
    "abs": np.abs, "max": np.nanmax, "min": np.nanmin, "mean": np.nanmean, "sum": np.sum,
    "any": np.any, "all": np.all, "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
    "norm": lambda a: float(np.linalg.norm(np.asarray(a, dtype=np.float64).reshape(-1))),
    "size": np.size, "len": len, "float": float, "int": int,
}
# tensor methods a condition may call, as numpy's ndarray methods compute them (NaN propagates:
# `x.max()` is NaN when x holds a NaN, unlike the NaN-ignoring function `max(x)`); `abs` is np.abs
METHODS: dict[str, Callable[..., object]] = {
    "sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "any": np.any, "all": np.all,
    "std": np.std, "var": np.var, "prod": np.prod, "abs": np.abs, "argmax": np.argmax, "argmin": np.argmin,
    "item": lambda a: np.asarray(a).item(),
}
PROPERTIES: dict[str, Callable[..., object]] = {"shape": np.shape, "ndim": np.ndim, "size": np.size}
MAX_ELEMENTS = 1 << 24  # the most elements an arithmetic result may have (broadcasting multiplies sizes)
KEYWORDS = ("axis",)  # the one keyword argument the functions and methods take
_PREFIX = "_irlint_"  # rewritten calls use names the check above refuses in typed text
NAMES = ("x", "outputs", "iteration", "iterations", "layer", "nan", "inf", "True", "False")
_ALLOWED = (ast.Expression, ast.Compare, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Load,
            ast.Constant, ast.Subscript, ast.Tuple, ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd,
            ast.Add, ast.Sub, ast.Mult, ast.MatMult, ast.Div, ast.Mod, ast.Pow, ast.Eq, ast.NotEq, ast.Lt,
            ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Attribute, ast.keyword, ast.Slice)
_UFUNCS: dict[type, Callable[..., object]] = {
    ast.MatMult: np.matmul, ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.true_divide,
    ast.Mod: np.mod, ast.Pow: np.power}
_COMPARISONS: dict[type, Callable[[object, object], object]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}  # type: ignore[operator]


class ConditionError(ValueError):
    """The typed breakpoint cannot be used (the message says why)."""


# what a refused piece of syntax is called in messages (else its class name, lower case)
_SYNTAX_NAMES = {"ListComp": "a list comprehension", "GeneratorExp": "a generator", "SetComp": "a set comprehension",
                 "DictComp": "a dict comprehension", "Lambda": "lambda", "IfExp": "'... if ... else ...'",
                 "NamedExpr": "':='", "List": "a list", "Dict": "a dict", "Set": "a set", "Starred": "'*'",
                 "JoinedStr": "an f-string", "Await": "await", "FloorDiv": "'//'", "LShift": "'<<'",
                 "RShift": "'>>'", "BitOr": "'|'", "BitAnd": "'&'", "BitXor": "'^'", "Invert": "'~'",
                 "Is": "'is'", "IsNot": "'is not'"}


def _check_attribute(node: ast.Attribute, called: bool, what: str = "condition") -> None:
    name = node.attr
    if name.startswith("_"):
        raise ConditionError(f"attribute {name!r} is not allowed: {_a(what)} can call only the tensor methods "
                             f"{', '.join(METHODS)} (e.g. x.sum()) and read {', '.join(PROPERTIES)}")
    a = _a(what).split()[0]
    if called and name not in METHODS:
        raise ConditionError(f"'.{name}()' is not one of the tensor methods {a} {what} can call: "
                             f"{', '.join(METHODS)}")
    if not called and name not in PROPERTIES:
        said = f"'.{name}' must be called, e.g. x.{name}()" if name in METHODS else f"'.{name}' is not allowed"
        raise ConditionError(f"{said}: {a} {what} reads only the attributes {', '.join(PROPERTIES)} "
                             f"and calls the tensor methods {', '.join(METHODS)}")


def _a(what: str) -> str:
    """'a condition', 'an expression'."""
    return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"


def _matmul_shape(x: np.ndarray, y: np.ndarray) -> tuple[int, ...]:
    """The shape of `x @ y` as numpy computes it, or ValueError saying why there is none."""
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("'@' multiplies tensors (at least 1-D); '*' multiplies by a number")
    a = x.shape if x.ndim > 1 else (1, x.shape[0])
    b = y.shape if y.ndim > 1 else (y.shape[0], 1)
    if a[-1] != b[-2]:
        raise ValueError(f"shapes {list(x.shape)} and {list(y.shape)} do not multiply: '@' needs the last "
                         f"dimension of the left ({a[-1]}) to equal the first of the matrix on the right ({b[-2]})")
    try:
        batch = np.broadcast_shapes(a[:-2], b[:-2])
    except ValueError:
        raise ValueError(f"shapes {list(x.shape)} and {list(y.shape)} do not broadcast") from None
    out = (*batch, *((a[-2],) if x.ndim > 1 else ()), *((b[-1],) if y.ndim > 1 else ()))
    if math.prod(out) * a[-1] > MAX_ELEMENTS * 16:
        raise ValueError(f"'@' of {list(x.shape)} and {list(y.shape)} would take {math.prod(out) * a[-1]} "
                         f"multiplications; at most {MAX_ELEMENTS * 16} are computed")
    return out


def _check_size(a: object, b: object) -> None:
    """Refuse, before computing it, an elementwise result of more than MAX_ELEMENTS elements."""
    try:
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    except ValueError:
        return  # not numpy's to broadcast (a tuple of tensors of several shapes): the operator says why
    if math.prod(shape) > MAX_ELEMENTS:
        raise ValueError(f"the result would have {math.prod(shape)} elements (shape {list(shape)}); "
                         f"at most {MAX_ELEMENTS} are computed")


def _comparison(op: Callable[[object, object], object]) -> Callable[[object, object], object]:
    """`a OP b` (==, <, in, ...) as Python compares, its elementwise result bounded like arithmetic's."""

    def apply(a: object, b: object) -> object:
        _check_size(a, b)
        return op(a, b)

    return apply


def _arithmetic(ufunc: Callable[..., object]) -> Callable[[object, object], object]:
    """`a OP b` on numbers and tensors only, its result at most MAX_ELEMENTS elements (checked before
    computing it); integer powers are taken in float64 (`2 ** -1` is 0.5, and nothing overflows)."""

    def apply(a: object, b: object) -> object:
        x, y = np.asarray(a), np.asarray(b)
        for v in (x, y):
            if v.dtype.kind not in "biuf":
                raise TypeError(f"arithmetic works on numbers and tensors, not on {v.dtype.name} values")
        if ufunc is np.matmul:
            _matmul_shape(x, y)
        else:
            try:
                np.broadcast_shapes(x.shape, y.shape)
            except ValueError:
                raise ValueError(f"shapes {list(x.shape)} and {list(y.shape)} do not broadcast") from None
            _check_size(x, y)
        if ufunc is np.power and x.dtype.kind in "biu" and y.dtype.kind in "biu":
            a = x.astype(np.float64)
        # the operands as typed: a Python number stays weakly typed (x * 2 keeps x's float32)
        out = ufunc(a if isinstance(a, (int, float, bool, np.ndarray, np.generic)) else x,
                    b if isinstance(b, (int, float, bool, np.ndarray, np.generic)) else y)
        return out[()] if isinstance(out, np.ndarray) and out.ndim == 0 else out

    return apply


class _Rewrite(ast.NodeTransformer):
    """`V.m(args)` -> `<m>(V, args)`, `V.p` -> `<p>(V)`: irlint's functions instead of attribute lookups;
    `a OP b` -> `<OP>(a, b)`: checked numpy arithmetic."""

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        """`a < b < c` -> `<Lt>(a, b) and <Lt>(b, c)`: checked comparisons."""
        self.generic_visit(node)
        parts: list[ast.expr] = []
        left = node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            parts.append(ast.Call(func=ast.Name(id=_PREFIX + "c" + type(op).__name__, ctx=ast.Load()),
                                  args=[left, right], keywords=[]))
            left = right
        return parts[0] if len(parts) == 1 else ast.BoolOp(op=ast.And(), values=parts)

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        return ast.Call(func=ast.Name(id=_PREFIX + "o" + type(node.op).__name__, ctx=ast.Load()),
                        args=[node.left, node.right], keywords=[])

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if not isinstance(node.func, ast.Attribute):
            return self.generic_visit(node)
        args = [self.visit(a) for a in (node.func.value, *node.args)]
        keywords = [self.visit(k) for k in node.keywords]
        return ast.Call(func=ast.Name(id=_PREFIX + "m" + node.func.attr, ctx=ast.Load()), args=args,
                        keywords=keywords)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        return ast.Call(func=ast.Name(id=_PREFIX + "p" + node.attr, ctx=ast.Load()), args=[node.value], keywords=[])


def compile_expression(text: str, functions: Mapping[str, Callable[..., object]] | None = None,
                       what: str = "condition") -> Callable[[dict[str, object]], object]:
    """Check `text` against the whitelist and compile it; the returned function evaluates it over an
    environment of NAMES (`x`, `outputs`, ...). `functions` are callables besides FUNCTIONS (the console's
    `value`); `what` names the text in messages ('condition', 'expression')."""
    allowed = {**FUNCTIONS, **(functions or {})}
    try:
        return _compile(text, allowed, what)
    except (RecursionError, MemoryError):  # Python's parser and compiler recurse once per nested operator
        raise ConditionError(f"the {what} is nested too deeply to compile (it has "
                             f"{sum(text.count(c) for c in '+-*/@%(')} operators and brackets); "
                             "sum(x), x.sum(axis=0) or a shorter chain of operators compute the same") from None


def _compile(text: str, allowed: dict[str, Callable[..., object]], what: str) -> Callable[[dict[str, object]], object]:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ConditionError(f"cannot parse the {what} {text.strip()!r}: {e.msg}") from e
    methods = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            kind = type(node).__name__
            raise ConditionError(f"{_SYNTAX_NAMES.get(kind, kind.lower())} is not allowed in {_a(what)}")
        if isinstance(node, ast.Attribute):
            _check_attribute(node, id(node) in methods, what)
        if isinstance(node, ast.Call) and not isinstance(node.func, ast.Attribute) and not (
                isinstance(node.func, ast.Name) and node.func.id in allowed):
            raise ConditionError(f"only these functions can be called: {', '.join(sorted(allowed))} "
                                 f"(and the tensor methods {', '.join(METHODS)}, e.g. x.sum())")
        if isinstance(node, ast.keyword) and node.arg not in KEYWORDS:
            raise ConditionError(f"keyword argument {node.arg!r} is not allowed: only {', '.join(KEYWORDS)}=N")
        if isinstance(node, ast.Name) and node.id not in allowed and node.id not in NAMES:
            raise ConditionError(f"unknown name {node.id!r}: {_a(what)} can use {', '.join(NAMES[:5])}")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, bool, str)) \
                and node.value is not None:
            raise ConditionError("only numbers and strings are allowed as constants")
    tree = ast.fix_missing_locations(_Rewrite().visit(tree))
    code = compile(tree, f"<{what}>", "eval")
    scope: dict[str, object] = {"__builtins__": {}, **allowed, "nan": float("nan"), "inf": float("inf"),
                                "True": True, "False": False,
                                **{_PREFIX + "m" + k: f for k, f in METHODS.items()},
                                **{_PREFIX + "p" + k: f for k, f in PROPERTIES.items()},
                                **{_PREFIX + "o" + op.__name__: _arithmetic(f) for op, f in _UFUNCS.items()},
                                **{_PREFIX + "c" + op.__name__: _comparison(f) for op, f in _COMPARISONS.items()}}

    def evaluate(env: dict[str, object]) -> object:
        with np.errstate(all="ignore"):
            try:
                return eval(code, scope, env)  # the tree was whitelisted above
            except RecursionError:
                raise ValueError(f"the {what} is nested too deeply to evaluate") from None

    return evaluate


def compile_condition(text: str) -> Callable[[dict[str, object]], bool]:
    """A breakpoint's condition: true when the expression holds for every element."""
    evaluate = compile_expression(text)

    def test(env: dict[str, object]) -> bool:
        with np.errstate(all="ignore"):
            return bool(np.all(evaluate(env)))

    return test


def parse_breakpoint(text: str, model: Model):  # type: ignore[no-untyped-def]
    """`[layer] SPEC [when EXPR]` or `when EXPR` -> a ConditionalBreakpoint (plain layer -> a Breakpoint);
    `nonfinite [MAGNITUDE]` -> the Breakpoint on the first NaN/Inf (or |value| > MAGNITUDE) at any depth.

    SPEC is an id path (2/body/7), a layer name, or a bare id when one layer at any level has it.
    """
    from irlint.viewer.debugger.breakpoints import Breakpoint, ConditionalBreakpoint

    text = text.strip()
    words = text.split()
    if words and words[0] == "nonfinite":  # `nonfinite [MAGNITUDE]`: NaN/Inf (or |value| > MAGNITUDE) anywhere
        if "log" in words or "hit" in words:
            raise ConditionError("`log` and `hit` go with a layer or a `when` condition, not with `nonfinite`")
        if len(words) > 2:
            raise ConditionError("nonfinite takes at most one number: nonfinite 1e6")
        try:
            bound = float(words[1]) if len(words) == 2 else None
        except ValueError as e:
            raise ConditionError(f"nonfinite {words[1]!r}: expected a magnitude, e.g. nonfinite 1e6") from e
        if bound is not None and not (bound >= 0 and np.isfinite(bound)):
            raise ConditionError(f"nonfinite {words[1]}: the magnitude must be a finite number >= 0")
        return Breakpoint(nonfinite=True, bound=bound)
    count = 0
    found = re.search(r"(?:^|\s)hit\s+(\S+)\s*$", text)  # `... hit N`: stop at the Nth hit
    if found:
        if not found.group(1).isdigit() or int(found.group(1)) < 1:
            raise ConditionError(f"hit {found.group(1)!r}: give the hit to stop at, a whole number >= 1 (hit 3)")
        count, text = int(found.group(1)), text[:found.start()].strip()
    log = ""
    found = re.search(r"(?:^|\s)log(?:\s+(.*))?$", text)  # `... log EXPR`: print EXPR at each hit, go on
    if found:
        text, log = text[:found.start()].strip(), (found.group(1) or "").strip()
        if not log:
            raise ConditionError("`log` needs an expression to print, e.g. log x.max()")
        compile_expression(log, {"value": lambda *a: None}, what="expression")  # refused now, not at each hit
    if log or count:
        bp = parse_breakpoint(text, model) if text else None
        if bp is not None and type(bp) is Breakpoint and (bp.nonfinite or bp.layer is None):
            raise ConditionError("`log` and `hit` go with a layer or a `when` condition, not with `nonfinite`")
        if bp is None and not text:
            raise ConditionError("a logpoint needs a layer and/or `when CONDITION`: layer 12 log x.max()")
        when = getattr(bp, "when", "")
        return ConditionalBreakpoint(layer=bp.layer, when=when, test=getattr(bp, "test", None), log=log,
                                     count=count)
    head, sep, cond = text.partition(" when ") if not text.startswith("when ") else ("", "when", text[5:])
    head = head.strip()
    if head.startswith("layer "):
        head = head[6:].strip()
    path = None
    if head:
        path = resolve_layer(head, model)
    if not sep:
        if path is None:
            raise ConditionError("type a layer (id path, name or id) and/or `when CONDITION`")
        return Breakpoint(layer=path)
    cond = cond.strip()
    if cond.split()[:1] == ["nonfinite"]:
        raise ConditionError("`nonfinite [MAGNITUDE]` stops at any layer: type it alone on the line; for one layer "
                             "type `layer SPEC when not all(isfinite(x))` or `when max(abs(x)) > 1e6`")
    if not cond:
        raise ConditionError("`when` needs a condition, e.g. when max(abs(x)) > 1e3")
    return ConditionalBreakpoint(layer=path, when=cond, test=compile_condition(cond))


def add_breakpoint(session, text: str) -> str:  # type: ignore[no-untyped-def]
    """Set the breakpoint a `B` line describes in `session`; returns what the log says. `nonfinite [M]`
    replaces the breakpoint on bad values. Raises ConditionError for a line that does not parse."""
    bp = parse_breakpoint(text, session.model)
    if bp.nonfinite and bp.layer is None:
        return session.set_value_breakpoint(bp.bound)
    session.add_breakpoint(bp)
    if getattr(bp, "log", ""):
        return f"logpoint set: {text.strip()} (its lines go to the log" + (
            f" and {session.logpoints.path})" if session.logpoints.path else ")")
    return f"breakpoint set: {text.strip()}"


def resolve_layer(spec: str, model: Model) -> str:
    """A layer's id path from an id path, a name, or a bare id that one layer at any level has."""
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


def breakpoint_text(bp) -> str:  # type: ignore[no-untyped-def]
    """A breakpoint as the line `parse_breakpoint` reads back (the list shows it, editing starts from it)."""
    when = getattr(bp, "when", "")
    if bp.layer is None and not when and (bp.nonfinite or bp.bound is not None):
        return "nonfinite" + (f" {bp.bound:g}" if bp.bound is not None else "")
    if bp.layer is None and not when and bp.iteration is not None:
        return f"iteration {bp.iteration}" + (f" of {bp.loop}" if bp.loop else "")
    layer = f"layer {bp.layer}" if bp.layer is not None else ""
    text = f"{layer} when {when}".strip() if when else layer
    log, count = getattr(bp, "log", ""), getattr(bp, "count", 0)
    return " ".join(x for x in (text, f"log {log}" if log else "", f"hit {count}" if count else "") if x)
