"""A bound loop body as one generated Python function: the plain driver without its interpreter loop.

Interpreting a program costs per op a tuple unpack, a kind test, the memory guard's size loop, the
kernel call through an input getter and a store: about half a microsecond, which is what a body of
small-tensor ops spends most of its time on. The generated function does only what each op needs,
decided when the body is bound: its inputs read from fixed slot indices, the size test only over
inputs that are not constants (whose bytes are added in at generation), no test at all for ops
whose outputs are never larger than their inputs, the kernel called directly (or, where the kernel
carries an `irlint.ops.direct.Direct`, numpy itself behind an inline type test) and its outputs
stored at fixed slots. The source defines `make(...)`, compiled once per body and kept across runs:
each run calls it with its own slots, kernels and callbacks. Nothing is recorded while it runs: a
failure is traced back to its op by the line it happened on, and only then are the op's inputs
read again to explain it.

The generated code calls back into the executor for everything but ops (nested loops, Ifs, the
guard, explaining a failure), so its behaviour is the interpreter's, op for op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from irlint.interp.program import BRANCH, LOOP, OP, Instr
from irlint.ops.direct import UNARY_FLOATS, Direct, direct_of

# How an op's output is checked against the memory budget before it runs.
GUARD_ALWAYS, GUARD_BY_SIZE, GUARD_NEVER = 0, 1, 2
# Bodies of more ops than this are interpreted: compiling the source would cost more than it saves.
MAX_GENERATED_OPS = 2000
# A body is interpreted for its first executions and generated only when it runs again (an If taken
# once, a Loop of two iterations never pay for compiling: about 50 us per op, once per process).
GENERATE_AFTER = 2
# Compiled sources, shared by every run in the process (a source names slots, never values).
_COMPILED: dict[str, Any] = {}
_MAX_COMPILED = 256
# What a body's ops compile to, by (kind, op, guard) of each op, the constant slots' bytes, the budget's
# threshold and whether it commits Assigns: each run binds its bodies afresh, and writing the source
# out again cost a short run a tenth of its time. The ops themselves are kept with the entry, so the
# ids in its key stay theirs.
_SOURCES: dict[tuple[Any, ...], tuple[Any, dict[int, Instr], tuple[tuple[str, ...], ...], tuple[Instr, ...]]] = {}


@dataclass(frozen=True, slots=True)
class Callbacks:
    """What generated code calls back into (the executor's methods, bound)."""

    guard: Callable[[Instr, Sequence[Any]], None]
    loop: Callable[[Instr, Sequence[Any], Any], Sequence[Any]]
    branch: Callable[[Instr, Sequence[Any], Any], Sequence[Any]]
    explain: Callable[[Instr, Sequence[Any], BaseException], BaseException]
    commit: Callable[[Any], None]


def generate(ops: Sequence[tuple[int, Any, Instr, int]], slots: list[Any], const_bytes: dict[int, int],
             threshold: int, assigns: Any, calls: Callbacks, known_only: bool = False) -> Callable[[Any], None] | None:
    """`ops`: (kind, kernel, instr, guard) in program order, Results left out; `slots`: the bound
    slot list the function reads and writes; `const_bytes`: the bytes of the slots that hold
    constants; `assigns`: the level's Assign layers to commit at its end (falsy: none).
    Returns `run(frames)`; with `known_only`, None unless an earlier binding of the same body (a
    previous run) compiled its code already, which then costs nothing to reuse."""
    directs = [direct_of(kernel) if kind == OP and len(instr.dsts) == 1 else None
               for kind, kernel, instr, _guard in ops]
    key = (tuple((kind, id(instr), guard, _form(d, instr)) for (kind, _k, instr, guard), d in zip(ops, directs)),
           tuple(const_bytes.items()), threshold, bool(assigns))
    got = _SOURCES.get(key)
    if got is None:
        if known_only:
            return None
        if len(_SOURCES) >= _MAX_COMPILED:
            _SOURCES.clear()
        got = _SOURCES[key] = (*_source(ops, directs, const_bytes, threshold, assigns),
                               tuple(i for _, _, i, _ in ops))
    code, failing, needs = got[0], got[1], got[2]

    def fail(err: Exception) -> BaseException | None:
        """A kernel's failure explained with its inputs (read again from the slots, which the failed
        op has not written); anything else (the guard's, a nested loop's error) passes unchanged."""
        tb = err.__traceback__
        instr = failing.get(tb.tb_lineno) if tb is not None else None
        if instr is None:
            return None
        return calls.explain(instr, [slots[i] for i in instr.srcs], err)

    # `make`'s arguments, in the order of its parameters (`_HEAD`, then each op's names)
    args: list[Any] = [slots, calls.guard, calls.loop, calls.branch, calls.commit, assigns, fail, np.ndarray,
                       UNARY_FLOATS[0], UNARY_FLOATS[1]]
    add = args.append
    for (_kind, kernel, instr, _guard), direct, need in zip(ops, directs, needs):
        add(instr)
        for name in need:
            if name == "K":
                add(kernel)
            elif name == "D":
                add(instr.dsts)
            elif name == "U":
                add(direct.fn)  # type: ignore[union-attr]
            elif name == "C":
                add(direct.const)  # type: ignore[union-attr]
            else:
                add(direct.dtype if direct.dtype is not None else direct.const.dtype)  # type: ignore[union-attr]
    run: Callable[[Any], None] = code.make(*args)
    run.source = code.source  # type: ignore[attr-defined]  # for debugging and the tests
    return run


# The parameters of every generated `make` before its ops' own: the slots, the callbacks, the
# failure's explainer and the names the inline calls test types with.
_HEAD = ("s", "G", "LOOP", "BRANCH", "COMMIT", "ASSIGNS", "FAIL", "ND", "F32", "F64")


class _Code:
    """A compiled body source, the source itself, and its `make`: called with the run's slots,
    callbacks, kernels and constants, it returns the body's `run(frames)` (a closure over them: a run
    binds its bodies afresh, and a call costs far less than executing the source again)."""

    __slots__ = ("make", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        scope: dict[str, Any] = {}
        exec(compile(source, "<irlint body>", "exec"), scope)  # defines make(); the source holds slot numbers only
        self.make: Callable[..., Callable[[Any], None]] = scope["make"]


def _form(direct: Direct | None, instr: Instr) -> tuple[int, int, int, bool] | None:
    """How the op's `Direct` is written inline (arity, constant position, rank and whether it is exact:
    part of the compiled source's key), or None when it is not: no Direct, or other inputs than it
    expects."""
    if direct is None:
        return None
    want = 1 if direct.arity == 1 else 2
    if len(instr.srcs) != want or (direct.const is None) != (direct.at < 0):
        return None
    return direct.arity, direct.at, direct.rank, direct.exact_rank


def _direct_call(n: int, direct: Direct, srcs: Sequence[int]) -> tuple[str, list[str]]:
    """The inline call of op n's `Direct` with its test, falling back to the kernel: the expression,
    and the locals it reads (bound from the slots by the caller)."""
    if direct.arity == 1:
        return (f"U{n}(x) if x.__class__ is ND and x.ndim and (x.dtype is F32 or x.dtype is F64) "
                f"else K{n}((x,))[0]"), ["x"]
    if direct.const is None:
        return (f"U{n}(x, y) if x.__class__ is ND is y.__class__ and x.dtype is y.dtype and (x.ndim or y.ndim) "
                f"else K{n}((x, y))[0]"), ["x", "y"]
    call = f"U{n}(x, C{n})" if direct.at == 1 else f"U{n}(C{n}, x)"
    both = ", ".join(f"s[{i}]" for i in srcs)
    rank = f"x.ndim {'==' if direct.exact_rank else '>='} {direct.rank}"
    return f"{call} if x.__class__ is ND and x.dtype is T{n} and {rank} else K{n}(({both}))[0]", ["x"]


def _source(ops: Sequence[tuple[int, Any, Instr, int]], directs: Sequence[Direct | None],
            const_bytes: dict[int, int], threshold: int, assigns: Any
            ) -> tuple[_Code, dict[int, Instr], tuple[tuple[str, ...], ...]]:
    """The compiled body for `generate`, the line of each kernel call with its op, and the names each op
    passes to `make` after its I{n} (K: kernel, D: destinations, U, C, T: its `Direct`'s function,
    constant and type)."""
    lines = ["", " def run(frames):", "  try:"]  # the first line, make's signature, is written last
    failing: dict[int, Instr] = {}  # line number of a kernel call -> its op
    needs: list[tuple[str, ...]] = []

    def emit(text: str) -> int:
        lines.append("   " + text)
        return len(lines)

    for n, ((kind, _kernel, instr, guard), direct) in enumerate(zip(ops, directs)):
        args = "(" + "".join(f"s[{i}], " for i in instr.srcs) + ")"
        emit(f"# {instr.layer.describe()!a}")  # ASCII-escaped: no name can end the comment
        inline = kind == OP and direct is not None and _form(direct, instr) is not None
        need = ("K",) if kind == OP else ()
        if len(instr.dsts) != 1:
            need += ("D",)
        if inline:
            need += ("U", "C", "T") if direct.const is not None else ("U",)  # type: ignore[union-attr]
        needs.append(need)
        if inline:
            assert direct is not None
            call, names = _direct_call(n, direct, instr.srcs)
            # x (and y): the inputs that are not the constant, read once into locals
            read = [instr.srcs[1 - direct.at]] if direct.const is not None else list(instr.srcs)
            local = dict(zip(read, names))
            dynamic = [i for i in instr.srcs if i not in const_bytes]
            fixed = sum(const_bytes[i] for i in instr.srcs if i in const_bytes)
            emit(", ".join(names) + " = " + ", ".join(f"s[{i}]" for i in read))
            if guard == GUARD_ALWAYS or (guard == GUARD_BY_SIZE and not dynamic and fixed > threshold):
                emit(f"G(I{n}, {args})")
            elif guard == GUARD_BY_SIZE and dynamic:
                size = " + ".join(f"{local.get(i, f's[{i}]')}.nbytes" for i in dynamic)
                emit(f"if {size} > {threshold - fixed}: G(I{n}, {args})")
            failing[emit(f"s[{instr.dsts[0]}] = {call}")] = instr
            continue
        if kind == OP:
            dynamic = [i for i in instr.srcs if i not in const_bytes]
            fixed = sum(const_bytes[i] for i in instr.srcs if i in const_bytes)
            if guard == GUARD_ALWAYS or (guard == GUARD_BY_SIZE and not dynamic and fixed > threshold):
                emit(f"a = {args}")
                emit(f"G(I{n}, a)")
                args = "a"
            elif guard == GUARD_BY_SIZE and dynamic:
                emit(f"a = {args}")
                emit(f"if {' + '.join(f's[{i}].nbytes' for i in dynamic)} > {threshold - fixed}: G(I{n}, a)")
                args = "a"
            call = f"K{n}({args})"
        elif kind == LOOP:
            call = f"LOOP(I{n}, {args}, frames)"
        else:
            assert kind == BRANCH
            call = f"BRANCH(I{n}, {args}, frames)"
        dsts = instr.dsts
        if len(dsts) == 1:
            line = emit(f"s[{dsts[0]}] = {call}[0]")
        else:
            line = emit(f"o = {call}")
            if dsts:
                targets = ", ".join(f"s[{d}]" for d in dsts)
                emit(f"if len(o) == {len(dsts)}: {targets}, = o")
                emit("else:")
                emit(f" for d, v in zip(D{n}, o): s[d] = v")  # fewer or more outputs: what zip stores
        if kind == OP:
            failing[line] = instr
    if assigns:
        emit("COMMIT(ASSIGNS)")
    if not ops and not assigns:
        emit("pass")  # a body of Parameters and Results only: the try block still needs a statement
    lines += ["  except Exception as e:", "   x = FAIL(e)", "   if x is None: raise", "   raise x from e",
              " return run"]
    params = [*_HEAD]
    for n, need in enumerate(needs):
        params += [f"I{n}", *(f"{name}{n}" for name in need)]
    lines[0] = f"def make({', '.join(params)}):"
    source = "\n".join(lines) + "\n"
    code = _COMPILED.get(source)
    if code is None:
        if len(_COMPILED) >= _MAX_COMPILED:
            _COMPILED.clear()
        code = _COMPILED[source] = _Code(source)
    return code, failing, tuple(needs)
