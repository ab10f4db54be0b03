"""The three readings of a sliced port_map entry's start/end/stride/part_size (docs/semantics.md).

- The spec and OpenVINO's core shape inference — the reading irlint follows (`resolve`): a
  negative `start`/`end` counts from the end (``dim + value``); `end` is inclusive; the sign of
  `stride` gives the direction; iterations = (|end - start| + 1) / part_size, and iteration k takes
  `part_size` consecutive elements.
- The core's reference implementation (`core_reference_plan`): splits the whole axis into equal
  chunks and walks them backwards for a negative stride; it does not look at start/end.
- The CPU plugin (`cpu_plugin_plan`): negatives as ``dim + 1 + value``, `end` exclusive, and
  `start` ignored when placing the slices.

The readings agree for the default range (0, -1) and the reverse form (-1, 0, stride -1); where the
CPU plugin's choice differs from ours, `cpu_differs` says so (rules warn, `compare` explains).

A Loop's entries carry the same attributes, but OpenVINO reads them otherwise (measured on 2026.4,
docs/semantics.md): its core and its CPU plugin ignore `start` and `end` and slice the whole axis,
forwards from element 0 or backwards from the last element as the stride's sign says. irlint does
the same (`resolve_loop`): `part_size` elements per iteration, dim / part_size iterations. The CPU
plugin takes parts of |stride| elements (`cpu_plugin_loop_plan`), so the two agree when
|stride| == part_size.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_START = 0
DEFAULT_END = -1
DEFAULT_STRIDE = 1
DEFAULT_PART_SIZE = 1


def part_length(part_size: int | None) -> int:
    """How many elements along the axis one iteration's slice holds (the default where unusable)."""
    return part_size if part_size is not None and part_size >= 1 else DEFAULT_PART_SIZE


@dataclass(frozen=True, slots=True)
class SliceSpec:
    """Resolved slicing of one port_map entry along a dimension of size `dim`."""

    dim: int
    start: int  # normalised, inclusive
    end: int  # normalised, inclusive
    stride: int
    part_size: int
    iterations: int
    raw_start: int = DEFAULT_START  # as written (defaults applied), for the CPU plugin's reading
    raw_end: int = DEFAULT_END

    def bounds(self, k: int) -> tuple[int, int]:
        """Half-open element range [lo, hi) read (or written) by iteration `k`."""
        if self.stride > 0:
            lo = self.start + k * self.part_size
        else:
            lo = self.start - (k + 1) * self.part_size + 1
        return lo, lo + self.part_size

    @property
    def reverse(self) -> bool:
        return self.stride < 0

    def iteration_of(self, index: int) -> int | None:
        """The iteration whose slice holds element `index` of the axis (None: no iteration reads it)."""
        offset = index - self.start if self.stride > 0 else self.start - index
        if not 0 <= offset < self.iterations * self.part_size:
            return None
        return offset // self.part_size


class SliceError(ValueError):
    """The entry's attributes admit no slicing; the message shows the arithmetic."""


def normalise(value: int, dim: int) -> int:
    return dim + value if value < 0 else value


def _attributes(start: int | None, end: int | None, stride: int | None, part_size: int | None
                ) -> tuple[int, int, int, int]:
    """An entry's start, end, stride and part_size with their defaults filled in; SliceError for a
    stride of 0 or a part_size below 1, which no reading can iterate with."""
    st = DEFAULT_STRIDE if stride is None else stride
    ps = DEFAULT_PART_SIZE if part_size is None else part_size
    if st == 0:
        raise SliceError("stride is 0: iteration would never advance")
    if ps < 1:
        raise SliceError(f"part_size is {ps}; it must be at least 1")
    return (DEFAULT_START if start is None else start), (DEFAULT_END if end is None else end), st, ps


def resolve(dim: int, start: int | None, end: int | None, stride: int | None,
            part_size: int | None) -> SliceSpec:
    """Resolve an entry's (possibly absent) attributes against a static dimension; raises SliceError."""
    s_raw, e_raw, st, ps = _attributes(start, end, stride, part_size)
    s, e = normalise(s_raw, dim), normalise(e_raw, dim)
    where = f"start={s_raw} end={e_raw} on a dimension of {dim}"
    if dim == 0:
        return SliceSpec(0, 0, 0, st, ps, 0, s_raw, e_raw)
    if not 0 <= s < dim:
        raise SliceError(f"{where}: start resolves to {s}, outside [0, {dim - 1}]")
    if not 0 <= e < dim:
        raise SliceError(f"{where}: end resolves to {e}, outside [0, {dim - 1}]")
    if st > 0 and s > e:
        raise SliceError(f"{where} resolves to {s}..{e}, but stride {st} > 0 iterates upwards")
    if st < 0 and s < e:
        raise SliceError(f"{where} resolves to {s}..{e}, but stride {st} < 0 iterates downwards")
    length = abs(e - s) + 1
    if length % ps:
        raise SliceError(f"{where}: the range {min(s, e)}..{max(s, e)} holds {length} elements, "
                         f"not a multiple of part_size {ps}")
    return SliceSpec(dim, s, e, st, ps, length // ps, s_raw, e_raw)


def resolve_loop(dim: int, start: int | None, end: int | None, stride: int | None,
                 part_size: int | None) -> SliceSpec:
    """A Loop entry's slicing: whole parts of the axis in the stride's direction, whatever `start`/`end`
    say (OpenVINO's core and CPU plugin do not read them on a Loop). When part_size does not divide the
    axis, the last dim % part_size elements are read by no iteration, in either direction, as on the
    CPU plugin (`unread`). Raises SliceError for a stride of 0 or a part_size below 1."""
    raw_start, raw_end, st, ps = _attributes(start, end, stride, part_size)
    usable = dim // ps * ps
    if usable == 0:
        return SliceSpec(dim, 0, 0, st, ps, 0, raw_start, raw_end)
    whole = resolve(dim, 0 if st > 0 else usable - 1, usable - 1 if st > 0 else 0, st, ps)
    return SliceSpec(whole.dim, whole.start, whole.end, whole.stride, whole.part_size, whole.iterations,
                     raw_start, raw_end)


def unread(spec: SliceSpec) -> int:
    """How many elements at the end of the axis no iteration of a Loop reads (dim % part_size)."""
    return spec.dim % spec.part_size if spec.part_size >= 1 else 0


def resolve_entry(dim: int, is_loop: bool, start: int | None, end: int | None, stride: int | None,
                  part_size: int | None) -> SliceSpec:
    """The reading irlint follows for a TensorIterator's (`resolve`) or a Loop's (`resolve_loop`) entry."""
    return (resolve_loop if is_loop else resolve)(dim, start, end, stride, part_size)


def sub_range(spec: SliceSpec) -> tuple[int, int] | None:
    """The (first, last) elements a Loop entry's `start`/`end` name when, read as a TensorIterator's
    (negative values count from the end), they are not the whole axis in the stride's direction
    (OpenVINO ignores them; a rule says so); None when they are."""
    if spec.dim == 0:
        return None
    first, last = normalise(spec.raw_start, spec.dim), normalise(spec.raw_end, spec.dim)
    whole = (0, spec.dim - 1) if spec.stride > 0 else (spec.dim - 1, 0)
    return None if (first, last) == whole else (first, last)


def names_sub_range(start: int | None, end: int | None, stride: int | None) -> bool:
    """True if `start`/`end` select less than the whole axis whatever its length: forwards, a first
    element after 0 or a last one before the end; backwards, the mirror image."""
    s = DEFAULT_START if start is None else start
    st = DEFAULT_STRIDE if stride is None else stride
    if st >= 0:
        return s > 0 or (end is not None and end < DEFAULT_END)
    return s < DEFAULT_END or (end is not None and end > DEFAULT_START)


def cpu_plugin_loop_plan(dim: int, stride: int, part_size: int) -> tuple[int, int, int] | None:
    """How the CPU plugin slices a Loop's input: parts of |stride| elements over the whole parts of the
    axis, from element 0 or backwards from the last whole part, `start`/`end` ignored: (first element,
    slices, step), or None when |stride| differs from part_size (it then reads |stride| elements into
    a part_size-long Parameter, or fails at inference on a dynamic shape)."""
    if stride == 0 or abs(stride) != part_size:
        return None
    count = dim // part_size
    return (0, count, part_size) if stride > 0 else (count * part_size - part_size, count, -part_size)


def cpu_plugin_iterations(dim: int, start: int, end: int, stride: int) -> int | str:
    """How many iterations the CPU plugin counts for a TensorIterator entry on an axis of `dim` elements,
    or the words it refuses the entry with at inference (docs/semantics.md). It normalises negatives as
    ``dim + 1 + value``, takes `end` as exclusive and steps by |stride|; the range must run from start
    to end in the stride's direction, inside [0, dim], and be a whole number of steps."""
    if stride == 0:
        return '"stride" = 0 (infinite loop)'
    s = dim + 1 + start if start < 0 else start
    e = dim + 1 + end if end < 0 else end
    lo, hi = (e, s) if stride < 0 else (s, e)
    length, step = hi - lo, abs(stride)
    if lo < 0 or lo >= hi or hi > dim or length < step:
        return f'Invalid "start","stride","end" values: "start" = {start}, "stride" = {stride}, "end" = {end}'
    if length % step:
        return f"Each iteration must be the same size: length ({length}) is not divisible by step ({step})"
    return length // step


def cpu_plugin_plan(dim: int, start: int, end: int, stride: int, part_size: int) -> tuple[int, int, int] | None:
    """How the CPU plugin reads the raw (start, end) as written: (first element, count, step), or None
    when it rejects the entry (`cpu_plugin_iterations`) or |stride| differs from part_size. It ignores
    `start` when placing the slices: forward iterations read from 0, backward ones from the top of the
    range down.
    """
    if stride == 0 or abs(stride) != part_size:
        return None
    count = cpu_plugin_iterations(dim, start, end, stride)
    if isinstance(count, str):
        return None
    if stride > 0:
        return 0, count, part_size
    return (dim // part_size - 1) * part_size, count, -part_size


def never_slices(start: int | None, end: int | None, stride: int | None, part_size: int | None) -> str | None:
    """For a TensorIterator entry on an axis whose length is known only at run time: why no length of at
    least one element makes start/end/stride/part_size a slicing (the last reason `resolve` gives), or None
    when some length does. Lengths past the attributes' reach plus a few parts behave alike."""
    s, e = DEFAULT_START if start is None else start, DEFAULT_END if end is None else end
    part = DEFAULT_PART_SIZE if part_size is None else part_size
    if part < 1 or stride == 0:
        return None  # reported whatever the length, by the caller
    why = None
    for dim in range(1, max(abs(s), abs(e)) + 4 * part + 4):
        try:
            resolve(dim, start, end, stride, part_size)
        except SliceError as err:
            why = str(err)
            continue
        return None
    return why


def length_read_otherwise(start: int, end: int, stride: int, part_size: int) -> int | None:
    """For a TensorIterator entry on an axis whose length is known only at run time: the shortest length
    on which the spec reads other elements than the CPU plugin (or the plugin refuses the range while
    the spec reads it), None when they agree on every length. Lengths past the attributes' reach plus a
    few parts behave alike, so the search stops there."""
    for dim in range(1, max(abs(start), abs(end)) + 4 * max(part_size, 1) + 4):
        try:
            spec = resolve(dim, start, end, stride, part_size)
        except SliceError:
            continue
        if spec.iterations > 0 and cpu_differs(spec):
            return dim
    return None


def core_reference_plan(dim: int, iterations: int, stride: int) -> tuple[int, int, int] | None:
    """How the core's reference implementation reads the entry: the whole axis in `iterations` equal
    chunks, backwards for a negative stride (None when the axis does not split evenly)."""
    if iterations <= 0 or dim % iterations:
        return None
    part = dim // iterations
    return (0, iterations, part) if stride > 0 else (dim - part, iterations, -part)


def spec_plan(spec: SliceSpec) -> tuple[int, int, int]:
    """Our reading in the same form: (first element, count, step)."""
    return spec.bounds(0)[0], spec.iterations, spec.part_size if spec.stride > 0 else -spec.part_size


def cpu_differs(spec: SliceSpec, is_loop: bool = False) -> bool:
    """True if the CPU plugin would read other elements than irlint says (or reject the entry)."""
    if is_loop:
        return spec.iterations > 0 and cpu_plugin_loop_plan(spec.dim, spec.stride, spec.part_size) is None
    cpu = cpu_plugin_plan(spec.dim, spec.raw_start, spec.raw_end, spec.stride, spec.part_size)
    return cpu is None or (cpu != spec_plan(spec) and spec.iterations > 0)
