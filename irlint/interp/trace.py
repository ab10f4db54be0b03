"""Per-iteration tensors of a run, with statistics for all and values within a memory budget.

Key scheme (docs/trace-format.md): ``<layer path>@<iterations>:<what>`` where the layer path is the
body layer's id path (``2/body/0``), iterations are the enclosing loops' iteration numbers, outer
first, joined by dots (``3`` or ``3.1``), and what is ``in`` (a body Parameter at iteration start),
``out`` (a body Result at iteration end) or ``out<k>`` (output port k of any layer, with trace_all).
Top-level layers (trace_all) have no ``@`` part.

Recording costs one tuple per hook call (the executor's tensors by reference) and an estimate of its
bytes; an innermost loop's iterations come in batches (`batches`), one call and one entry per batch,
estimated at the bytes of its first or last iteration, the larger. The exact count (the tensors' bytes
and their bookkeeping, TENSOR_BYTES each, against the budget; past it `irlint.interp.tracespill` keeps
them on disk, keys and positions too) waits until the trace is read or the estimates near the budget
(`Trace._settle`), and then takes the records in recording order, so the trace spills at the tensor
where counting each record as it came would. Keys are written out only when the trace is read by key,
and `save` writes each recorded tensor's iterations stacked into one array (format 2), so it writes no
key at all.

What a traced run costs beyond a plain one, on a loop of tiny tensors (a Loop inside a TensorIterator,
10,000 iterations of three ops): mostly the tensors kept alive (the allocator no longer reuses what
each iteration freed), then a Python call and an estimate per record (the sizes of a hook call's
tensors, of one iteration of a batch). Counting exactly, keys, stats and stacking wait until the trace
is read.
"""

from __future__ import annotations

import functools
import json
import os
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, groupby, pairwise, repeat
from operator import attrgetter
from typing import IO, Any

import numpy as np

from irlint.gcpause import paused_gc
from irlint.interp.events import FIXED, FRESH, Event, Frames, IterationFinished, IterationStarted, LayerEvaluated
from irlint.interp.tracespill import Series, SpillStore, rows_per_chunk, spilled_row_ok
from irlint.ir.model import Layer
from irlint.ops.misc.strings import for_npz

DEFAULT_BUDGET = 512 * 1024**2
FORMAT = 2  # docs/trace-format.md; format 1 (one array per key) is still read
SERIES = "__series__"  # member name prefix of a format-2 series (its values, then `.index`, `.stats`)
# What keeping a tensor costs besides its bytes, counted against the budget (tracemalloc, numpy 2.4,
# CPython 3.12): its array object (136 bytes for the 4-byte result of an op) and its share of the log:
# 64 bytes in an entry of two tensors (the event path's), 128 alone with a short key (`record`, or a hook
# call that did not fit). One figure, the largest, for every kept tensor: a tensor's cost must not depend
# on the entry that holds it, so that where the trace spills does not depend on how the tensors came
# (the plain driver's batches or the event path's calls). A batch's tensors take less (about 150 bytes).
TENSOR_BYTES = 264
MARK_BYTES = 168  # a log entry standing for a run of spilled tensors
_SPILLED = object()  # first item of such an entry: (_SPILLED, [first position, count])
_SEP = "\0"  # between keys joined in one string while writing them out (an IR file cannot hold it)
_BOTH = "in+out"  # an iteration's Parameters then Results, from a batch (`batches`): ids (params, results)
# A batch of iterations may hold at most this share of the budget still free, at the sizes of the last
# batch: the tensors the executor has not handed over yet are outside the budget until it does.
_BATCH_SHARE = 16
_MAX_BATCH = 1024
_NBYTES = attrgetter("nbytes")


def key(layer_path: str, frames: Frames, what: str) -> str:
    its = ".".join(str(k) for _p, k in frames)
    return f"{layer_path}@{its}:{what}" if its else f"{layer_path}:{what}"


def stats(a: np.ndarray) -> dict[str, object]:
    out: dict[str, object] = {"shape": list(a.shape), "dtype": str(a.dtype)}
    if a.size and np.issubdtype(a.dtype, np.number):
        f = a.astype(np.float64)
        finite = f[np.isfinite(f)]
        out.update(min=float(finite.min()) if finite.size else None, max=float(finite.max()) if finite.size else None,
                   mean=float(finite.mean()) if finite.size else None,
                   nan=int(np.isnan(f).sum()), inf=int(np.isinf(f).sum()))
    elif a.size and a.dtype == np.bool_:
        out.update(true=int(a.sum()), false=int(a.size - a.sum()))
    return out


def _row_stats(stacked: np.ndarray) -> np.ndarray | None:
    """`stats` of every row of a stacked series at once, as an (n, 5) float64 array of min, max, mean
    (NaN for None), nan, inf counts, or (n, 2) of true, false counts; None when `stats` gives shape and
    dtype only. Bit-identical to `stats` per row: a row with a NaN or an infinity goes through `stats`
    (a masked mean would sum in another order)."""
    n = stacked.shape[0]
    size = stacked[0].size if n else 0
    if not size:
        return None
    kind = stacked.dtype.kind
    flat = stacked.reshape(n, size)
    if stacked.dtype == np.bool_:
        true = flat.sum(axis=1, dtype=np.int64)
        return np.stack([true, size - true], axis=1).astype(np.float64)
    if not np.issubdtype(stacked.dtype, np.number):
        return None
    out = np.empty((n, 5), np.float64)
    if kind in "iu" or (kind == "f" and stacked.dtype.itemsize <= 8):
        f = flat.astype(np.float64)
        ok = np.isfinite(f).all(axis=1)
        good = f[ok]
        out[ok, 0], out[ok, 1], out[ok, 2] = good.min(axis=1), good.max(axis=1), good.mean(axis=1)
        out[ok, 3:] = 0
        rows = np.flatnonzero(~ok)
    else:
        rows = range(n)
    for r in rows:  # rows with non-finite values, and dtypes the vector path does not handle
        s = stats(stacked[r])
        out[r] = [np.nan if s[k] is None else s[k] for k in ("min", "max", "mean", "nan", "inf")]  # type: ignore[misc]
    return out


def _stats_from_row(shape: list[int], dtype: str, row: np.ndarray | None) -> dict[str, object]:
    out: dict[str, object] = {"shape": shape, "dtype": dtype}
    if row is None:
        return out
    if len(row) == 2:
        out.update(true=int(row[0]), false=int(row[1]))
        return out
    lo, hi, mean, nan, inf = row.tolist()
    none = lo != lo  # no finite value
    out.update(min=None if none else lo, max=None if none else hi, mean=None if none else mean,
               nan=int(nan), inf=int(inf))
    return out


def _iteration_hook(what: str) -> Callable[..., None]:
    """`Trace.iteration_started` ("in") or `Trace.iteration_finished` ("out"): `Trace._later` written
    out, since a loop whose body holds a nested loop calls both once per iteration."""

    def hook(
        self: Trace,
        layer: Layer,
        iteration: int,
        keys: Sequence[int | None],
        values: Sequence[np.ndarray],
        frames: Frames,
    ) -> None:
        self._pending.append((layer, frames, what, keys, values))
        self._guess += sum(map(_NBYTES, values)) + len(values) * TENSOR_BYTES
        if self._guess > self._slack:
            self._settle()

    return hook


@dataclass
class Trace:
    """Recorded tensors: in memory up to `budget` bytes (bookkeeping counted), then spilled to a temp dir.

    Recording is cheap because it is lazy: an iteration's tensors are kept as the one sequence the
    executor hands over (by reference: the executor never mutates a tensor once produced), in
    recording order; their bytes are counted against the budget when the trace is read or estimated to
    come near it (`_settle`), keys are written out only when the trace is read by key (`keys`, `get`,
    `values`, `info`). Statistics are computed when asked for (`stats_of`, `info`, `save`).
    """

    budget: int = DEFAULT_BUDGET
    trace_all: bool = False
    _held: int = 0  # bytes of what the log holds: tensors kept and their bookkeeping (TENSOR_BYTES ...), spilled ones'
    # Recording order. (layer, frames, what, ids, tensors): one hook call's tensors in memory ("in"/"out":
    # a body's Parameters or Results by id, "": the layer's outputs, ids "out<k>"; an int: one iteration
    # of a batch, its Parameters then Results, ids (params, results); a range: a whole batch, its tensors
    # one flat list, iteration after iteration, see `batches`); (key, array): one tensor recorded alone
    # (by `record`, or when a hook call did not fit: array None = spilled alone); (_SPILLED, [first, n]): n
    # tensors spilled as series rows (`irlint.interp.tracespill`) at recording positions first, first + 1 ...
    _log: list[tuple[Any, ...]] = field(default_factory=list)
    _position: int = 0  # tensors in the log (a tensor's position in recording order)
    # Records not counted yet, in recording order: a hook call's as the log holds it, a batch's as
    # (first iteration, tensors, frames, (layer, ids, counter, width)); `_settle` counts them into the
    # log. `_guess`: their bytes as the hooks estimate them; past `_slack` (half the budget free at the
    # last settling) they are settled.
    _pending: list[tuple[Any, ...]] = field(default_factory=list)
    _guess: int = 0
    _slack: int = -1  # (set from the budget in __post_init__, as _wide)
    _wide: int = -1
    _index: dict[str, np.ndarray | None] = field(default_factory=dict)  # key -> value (None: spilled)
    _written: int = 0  # log entries written out into _index
    _stats: dict[str, dict[str, object]] = field(default_factory=dict)
    _names: dict[tuple[str, str, tuple[Any, ...]], list[tuple[str, str]]] = field(default_factory=dict)
    _pieces: dict[int, list[str] | None] = field(default_factory=dict)  # id(names) -> `_pieces_of`
    _ports: dict[Layer, tuple[str, ...]] = field(default_factory=dict)
    _store: SpillStore = field(default_factory=SpillStore)
    _where: dict[str, tuple[Series, int]] = field(default_factory=dict)  # spilled row's key -> (series, row)

    def __post_init__(self) -> None:
        self._settle()

    # -- recording ---------------------------------------------------------------------------------
    # The listener hooks of the plain driver (`irlint.interp.run(model, inputs, listener=trace)`): the
    # same records as `observe`, without event objects. One estimate and one append per call; the
    # exact count waits until the trace is read or the estimates near the budget (`_settle`).
    @property
    def layers(self) -> bool:
        return self.trace_all

    @property
    def in_memory(self) -> int:
        """Bytes held: the tensors kept and their bookkeeping (TENSOR_BYTES each, ...), spilled ones' too."""
        if self._pending:
            self._settle()
        return self._held

    def _later(self, layer: Layer, what: str, ids: Sequence[Any], values: Sequence[np.ndarray],
               frames: Frames) -> None:
        """One hook call's record, counted when the trace settles (`_settle`)."""
        self._pending.append((layer, frames, what, ids, values))
        self._guess += sum(map(_NBYTES, values)) + len(values) * TENSOR_BYTES
        if self._guess > self._slack:
            self._settle()

    def _settle(self) -> None:
        """Count the pending records exactly, in recording order, each into the log while it fits the
        budget, else tensor by tensor (spilling what does not fit): the same log, spills and count as
        counting each record when it came. Then half the budget still free may be estimated again."""
        pending = self._pending
        if pending:
            records = pending.copy()
            pending.clear()  # (the batch takers hold this list)
            for r in records:
                if len(r) == 5:
                    self._keep(r[0], r[2], r[3], r[4], r[1])
                else:
                    self._keep_batch(r[0], r[1], r[2], *r[3])
        self._guess = 0
        free = self.budget - self._held
        self._slack = free // 2
        # a batch's iteration of at most this many bytes leaves room for the most iterations (`batches`)
        self._wide = (free - self._slack) // (_BATCH_SHARE * _MAX_BATCH) - 1

    def _keep(self, layer: Layer, what: Any, ids: Sequence[Any], values: Sequence[np.ndarray], frames: Frames) -> None:
        """One hook call's record, its tensors kept by reference while they fit the budget; else the
        tensors are recorded one by one (spilling what does not fit). `what` is "in", "out", "" (a
        layer's outputs) or, from a batch, the iteration number (`frames`: the enclosing loops')."""
        size = len(values) * TENSOR_BYTES
        for v in values:  # a loop: cheaper than sum(map(attrgetter)) for a few arrays
            size += v.nbytes
        total = self._held + size
        if total <= self.budget:
            self._held = total
            self._log.append((layer, frames, what, ids, values))
            self._position += len(values)
        elif what.__class__ is str:
            self._one_by_one(layer, frames, what, ids, values)
        else:
            self._one_by_one(layer, (*frames, (layer.path, what)), _BOTH, ids, values)

    def _keep_batch(self, first: int, values: list[np.ndarray], frames: Frames, layer: Layer, ids: tuple[Any, Any],
                    count: Callable[[list[np.ndarray], int], int], width: int) -> None:
        """A batch's record (iterations `first`, `first + 1`, ..., `width` tensors each): one log entry
        while it fits the budget (then every tensor fits where counting them one by one would put it),
        else kept iteration by iteration."""
        n = len(values) // width
        size = count(values, n) + len(values) * TENSOR_BYTES
        total = self._held + size
        if total <= self.budget:
            self._held = total
            self._log.append((layer, frames, range(first, first + n), ids, values))
            self._position += len(values)
        else:
            for j in range(n):
                self._keep(layer, first + j, ids, values[j * width:(j + 1) * width], frames)

    def batches(self, layer: Layer, ids: tuple[Any, Any], layout: tuple[int, ...]
                ) -> Callable[[int, list[np.ndarray], Frames], int]:
        """The taker of an innermost loop's batches (`frames`: the enclosing loops'): each batch of
        iterations `first`, `first + 1`, ... one flat list, per iteration its Parameters' then its
        Results' values (`ids`: their ids), what `iteration_started` and `iteration_finished` would
        record. A batch waits, estimated at its first or last iteration's bytes (the larger), until the
        trace settles; then its bytes are counted exactly, reading only the tensors `layout` says are
        made anew in every iteration (`_keep_batch`). Returns how many iterations the next batch may
        hold: as many as take at most 1/_BATCH_SHARE of the budget still free, at that estimate of an
        iteration."""
        width = len(layout)
        if not width:
            raise ValueError("a batch's records hold at least one tensor each")
        loop = (layer, ids, _batch_counter(layout), width)  # what `_keep_batch` needs besides the batch
        pending = self._pending
        bookkeeping = width * TENSOR_BYTES

        def take(first: int, values: list[np.ndarray], frames: Frames) -> int:
            # an iteration's bytes, estimated: the larger of the first and the last iteration's (sizes that
            # rise or fall along the batch are bounded by them)
            per = sum(map(_NBYTES, values[-width:]))
            if len(values) > width:
                per = max(per, sum(map(_NBYTES, values[:width])))
            per += bookkeeping
            pending.append((first, values, frames, loop))
            self._guess += len(values) // width * per
            if self._guess > self._slack:
                self._settle()
            if per <= self._wide:  # (the common case of the formula below)
                return _MAX_BATCH
            room = (self.budget - self._held - self._guess) // (_BATCH_SHARE * (per + 1))
            return 1 if room < 1 else min(room, _MAX_BATCH)

        return take

    iteration_started = _iteration_hook("in")
    iteration_finished = _iteration_hook("out")

    def layer_evaluated(self, layer: Layer, outputs: Sequence[np.ndarray], frames: Frames) -> None:
        names = self._ports.get(layer)
        if names is None:
            names = self._ports[layer] = tuple(f"out{p.id}" for p in layer.outputs)
        n = min(len(names), len(outputs))
        if not n:
            return
        self._later(layer, "", names[:n], tuple(v if type(v) is np.ndarray else np.asarray(v) for v in outputs[:n]),
                    frames)

    def observe(self, events: Iterator[Event]) -> Iterator[Event]:
        """Pass events through, recording what they carry. (Events are tested by exact class, the most
        frequent first: the executor makes them, never a subclass, and this runs once per event.)"""
        trace_all = self.trace_all
        for ev in events:
            cls = ev.__class__
            if cls is LayerEvaluated:
                if trace_all:
                    self.layer_evaluated(ev.layer, ev.outputs, ev.frames)
            elif cls is IterationStarted:
                params = ev.params
                self._later(ev.layer, "in", _ids(params, ev.branch), tuple(params.values()), ev.frames)
            elif cls is IterationFinished:
                results = ev.results
                self._later(ev.layer, "out", _ids(results, ev.branch), tuple(results.values()), ev.frames)
            yield ev

    def record(self, k: str, value: np.ndarray) -> None:
        if self._pending:
            self._settle()
        self._record(k, value if type(value) is np.ndarray else np.asarray(value))

    def _record(self, k: str, a: np.ndarray) -> None:
        if self._fits(k, a):
            return
        self._held += self._store.add_single(k, a)
        self._log.append((k, None))
        self._position += 1

    def _fits(self, k: str, a: np.ndarray) -> bool:
        """Keep `a` alone under key `k` if it fits the budget (then True)."""
        cost = a.nbytes + TENSOR_BYTES
        if self._held + cost > self.budget:
            return False
        self._held += cost
        self._log.append((k, a))
        self._position += 1
        return True

    def _load_spilled(self, k: str) -> np.ndarray:
        """A spilled tensor read back from disk."""
        where = self._where.get(k)
        if where is not None:
            return self._store.row(*where)
        return self._store.single(k)

    def _one_by_one(self, layer: Layer, frames: Frames, what: str, ids: Sequence[Any],
                    tensors: Sequence[np.ndarray]) -> None:
        """A hook call that does not fit the budget: each tensor kept while it fits, else spilled: as a row
        of its series (nothing in memory per tensor), or alone when it cannot be one."""
        at = _at(frames)
        its = tuple(k for _p, k in frames)
        store, log = self._store, self._log
        for (pre, post), v in zip(self._names_of(layer, what, ids), tensors):
            if type(v) is not np.ndarray:
                v = np.asarray(v)
            if self._fits(pre + at + post, v):
                continue
            if not spilled_row_ok(v, its):
                self._record(pre + at + post, v)
                continue
            self._held += store.add_row(pre, post, its, self._position, v)
            last = log[-1] if log else None
            if last is not None and last[0] is _SPILLED and len(log) > self._written:
                last[1][1] += 1  # (a run not yet written out by key)
            else:
                log.append((_SPILLED, [self._position, 1]))
                self._held += MARK_BYTES
            self._position += 1

    # -- reading by key ------------------------------------------------------------------------------
    def _names_of(self, layer: Layer, what: str, ids: Sequence[Any]) -> list[tuple[str, str]]:
        """Each tensor's key around its iterations: (before `@`, after the iterations)."""
        cache_key = (layer.path, what, ids if type(ids) is tuple else tuple(ids))
        names = self._names.get(cache_key)
        if names is None:
            path = layer.path
            if what == _BOTH:
                names = [(_inner(path, i), ":in") for i in ids[0]] + [(_inner(path, i), ":out") for i in ids[1]]
            else:
                names = [(_inner(path, i), f":{what}") if what else (path, f":{i}") for i in ids]
            self._names[cache_key] = names
        return names

    def _write_keys(self) -> dict[str, np.ndarray | None]:
        """Write the log's new entries out under their keys, in recording order (once each)."""
        if self._pending:
            self._settle()
        log, index = self._log, self._index
        if self._written < len(log):  # (`get` asks every time: nothing is copied when nothing is new)
            new = log[self._written:]
            self._written = len(log)
            with paused_gc():  # all made here is acyclic: no collection walks the trace (irlint.gcpause)
                keys, tensors = self._keys_of(new)
                index.update(zip(keys, chain.from_iterable(tensors)))
        return index

    def _keys_of(self, entries: list[tuple[Any, ...]]) -> tuple[list[str], list[Sequence[Any]]]:
        """The entries' keys in order, and each entry's tensors (as many as it has keys; a batch's
        iterations one by one). A hook call's keys differ only in their iterations part `at`, so they are
        made by one `at.join(pieces)` (its names around the separator _SEP), and all of them by one join
        and one split: no Python step per key. Keys that cannot take part (_SEP in a name or in the
        iterations, a lone tensor's key, names not paired one for one with the tensors) are listed one
        by one."""
        tensors: list[Sequence[Any]] = []  # per run below, its tensors
        add_tensors = tensors.append
        runs: list[str | list[str]] = []  # per hook call or iteration its keys: joined by _SEP, or listed
        add_run = runs.append
        memo: dict[int, tuple[Any, ...]] = {}  # id(ids) -> layer, kind, pieces, width (-1: listed), names
        listed = False
        last_frames: Frames | None = None
        last_at, prefix = "", "@"
        for entry in entries:  # (ids live in the log: their ids are not reused meanwhile)
            if len(entry) == 2:  # (key, array): a tensor recorded alone; or a run of spilled series rows
                if entry[0] is _SPILLED:
                    keys = self._spilled_keys(*entry[1])
                    add_tensors((None,) * len(keys))
                    add_run(keys)
                else:
                    add_tensors((entry[1],))
                    add_run([entry[0]])
                listed = True
                continue
            layer, frames, what, ids, values = entry
            if frames is not last_frames:  # an inner loop's entries share their enclosing frames
                last_frames, last_at = frames, _at(frames)
                prefix = f"{last_at}." if frames else "@"
            kind = what if what.__class__ is str else _BOTH  # else an iteration, or a batch's range of them
            m = memo.get(id(ids))
            if m is None or m[0] is not layer or m[1] != kind:
                names = self._names_of(layer, kind, ids)
                pieces = self._pieces_of(names)
                m = memo[id(ids)] = (layer, kind, pieces, -1 if pieces is None else len(names), names)
            _, _, pieces, width, names = m
            if what.__class__ is str:
                batch: Any = ((last_at, values),)
            elif what.__class__ is range:
                batch = zip([f"{prefix}{k}" for k in what], _rows(values, len(what)))
            else:
                batch = ((f"{prefix}{what}", values),)
            for at, vals in batch:
                if len(vals) == width and _SEP not in at:
                    add_run(at.join(pieces))
                    add_tensors(vals)
                else:  # no names, _SEP in a name or the iterations, or not paired as the executor pairs them
                    add_tensors(vals[:len(names)])
                    add_run([pre + at + post for (pre, post), _v in zip(names, vals)])
                    listed = True
        if not listed:
            return _SEP.join(runs).split(_SEP) if runs else [], tensors  # type: ignore[arg-type]
        keys: list[str] = []
        for joined, group in groupby(runs, key=lambda run: run.__class__ is str):
            part = list(group)
            keys.extend(_SEP.join(part).split(_SEP) if joined else chain.from_iterable(part))  # type: ignore[arg-type]
        return keys, tensors

    def _spilled_keys(self, first: int, n: int) -> list[str]:
        """The keys of the series rows spilled at recording positions first ... first + n - 1."""
        positions, numbers, rows, indexes = self._store.by_position()
        by_number = {s.number: s for s in self._store.series.values()}
        lo = int(np.searchsorted(positions, first))
        keys = []
        for number, r in zip(numbers[lo:lo + n].tolist(), rows[lo:lo + n].tolist()):
            s = by_number[number]
            k = s.key(indexes[number][r, 1:].tolist())
            self._where[k] = (s, r)
            keys.append(k)
        return keys

    def _pieces_of(self, names: list[tuple[str, str]]) -> list[str] | None:
        """What `at.join` needs to make `names`' keys joined by _SEP (None: no names, or _SEP in one)."""
        got = self._pieces.get(id(names), False)  # names live in self._names
        if got is False:
            got = None
            if names and not any(_SEP in pre or _SEP in post for pre, post in names):
                got = [names[0][0], *(post + _SEP + pre for (_p, post), (pre, _q) in pairwise(names)),
                       names[-1][1]]
            self._pieces[id(names)] = got
        return got

    @property
    def values(self) -> dict[str, np.ndarray]:
        """The tensors kept in memory by key (not the spilled ones)."""
        index = self._write_keys()
        if not self._store.count:
            return index  # type: ignore[return-value]
        return {k: v for k, v in index.items() if v is not None}

    @property
    def info(self) -> dict[str, dict[str, object]]:
        """Every key's statistics (computed now for those not asked for before)."""
        return {k: self.stats_of(k) for k in self._write_keys()}

    @property
    def spilled(self) -> dict[str, bool]:
        """The keys of the spilled tensors, in recording order (written out now, as `keys`)."""
        index = self._write_keys()
        if not self._store.count:
            return {}
        return {k: True for k, v in index.items() if v is None}

    def stats_of(self, k: str) -> dict[str, object]:
        s = self._stats.get(k)
        if s is None:
            v = (self._index if self._written == len(self._log) and not self._pending else self._write_keys())[k]
            s = self._stats[k] = stats(self._load_spilled(k)) | {"spilled": True} if v is None else stats(v)
        return s

    def get(self, k: str) -> np.ndarray:
        # (read in loops)
        v = (self._index if self._written == len(self._log) and not self._pending else self._write_keys())[k]
        return self._load_spilled(k) if v is None else v

    def keys(self) -> list[str]:
        return list(self._write_keys())

    def count(self) -> int:
        """How many tensors were recorded (without writing their keys out)."""
        if self._pending:
            self._settle()
        return sum((e[1][1] if e[0] is _SPILLED else 1) if len(e) == 2 else len(e[4]) for e in self._log)

    # -- saving --------------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the format-2 .npz: one stacked array per recorded tensor of a layer (its iterations as
        rows) where every iteration has the same shape and type, else one array per key; `__stats__`
        indexes both (docs/trace-format.md). Memory: one chunk of a series at a time (`rows_per_chunk`)."""
        if self._pending:
            self._settle()
        # Records grouped by the hook's ids object (the executor passes one tuple per loop), then
        # groups with equal (layer, what, ids) merged (the event path builds a tuple per event).
        by_ids: dict[tuple[int, int, str], tuple[list[int], list[tuple[Any, ...]]]] = {}
        singles: list[tuple[int, str, np.ndarray | None]] = []
        order = 0
        for entry in self._log:
            if len(entry) == 2:
                if entry[0] is _SPILLED:  # series rows on disk: their positions are in their index
                    order += entry[1][1]
                    continue
                singles.append((order, entry[0], entry[1]))
                order += 1
                continue
            layer, frames, what, ids, values = entry
            gk = (id(layer), id(ids), what if what.__class__ is str else _BOTH)
            g = by_ids.get(gk)
            if g is None:
                g = by_ids[gk] = ([], [])
            if what.__class__ is range:  # a batch: an entry per iteration, made here by zip
                g[0].extend(range(order, order + len(values), len(values) // len(what)))
                g[1].extend(zip(repeat(layer), repeat(frames), what, repeat(ids), _rows(values, len(what))))
                order += len(values)
            else:
                g[0].append(order)
                g[1].append(entry)
                order += len(values)
        groups: dict[tuple[str, str, tuple[Any, ...]], tuple[list[int], list[tuple[Any, ...]]]] = {}
        for (_l, _i, what), (starts, entries) in by_ids.items():
            layer, ids = entries[0][0], entries[0][3]
            g = groups.get((layer.path, what, tuple(ids)))
            if g is None:
                groups[(layer.path, what, tuple(ids))] = (starts, entries)
            else:
                g[0].extend(starts)
                g[1].extend(entries)
        index: dict[str, Any] = {"format": FORMAT, "series": [], "keys": []}
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
            for (_p, what, ids), (starts, entries) in groups.items():
                its = _iterations(entries)
                columns = list(zip(*[e[4] for e in entries]))  # each recorded tensor's iterations
                first = np.asarray(starts, np.int64)
                for j, ((pre, post), column) in enumerate(zip(self._names_of(entries[0][0], what, ids), columns)):
                    if _stackable(column):
                        self._save_series(zf, index, pre, post, column, first + j, its)
                    else:  # shapes or types change between iterations: one array per key
                        for o, it, v in zip((first + j).tolist(), its.tolist(), column):
                            singles.append((o, pre + (f"@{'.'.join(map(str, it))}" if it else "") + post, v))
            for spilled in sorted(self._store.series.values(), key=attrgetter("number")):
                self._save_spilled_series(zf, index, spilled)
            for o, k, v in singles:
                a = self._store.single(k) if v is None else v
                with zf.open(f"{k}.npy", "w", force_zip64=True) as f:
                    np.lib.format.write_array(f, for_npz(a), allow_pickle=False)  # strings as 'S'
                s = stats(a) | {"spilled": True} if v is None else self._stats.get(k) or stats(a)
                index["keys"].append([o, k, s])
            zf.writestr("__stats__.npy", _json_array(json.dumps(index)))

    def _save_series(self, zf: zipfile.ZipFile, index: dict[str, Any], pre: str, post: str,
                     column: Sequence[np.ndarray], orders: np.ndarray, its: np.ndarray) -> None:
        name = f"{SERIES}{len(index['series'])}"
        first = column[0]
        shape = (len(column), *first.shape)
        step = rows_per_chunk(first.nbytes, first.size)
        row_stats = []
        with zf.open(f"{name}.npy", "w", force_zip64=True) as f:
            _write_header(f, shape, first.dtype)
            for lo in range(0, len(column), step):
                chunk = np.array(column[lo:lo + step], dtype=first.dtype)
                f.write(chunk.tobytes())
                row_stats.append(_row_stats(chunk))
        with zf.open(f"{name}.index.npy", "w") as f:
            np.lib.format.write_array(f, np.concatenate([orders[:, None], its], axis=1), allow_pickle=False)
        entry = {"values": name, "key": [pre, post], "depth": int(its.shape[1]), "shape": list(first.shape),
                 "dtype": str(first.dtype)}
        if row_stats[0] is not None:
            with zf.open(f"{name}.stats.npy", "w") as f:
                np.lib.format.write_array(f, np.concatenate(row_stats), allow_pickle=False)
            entry["stats"] = f"{name}.stats"
        index["series"].append(entry)

    def _save_spilled_series(self, zf: zipfile.ZipFile, index: dict[str, Any], s: Series) -> None:
        """A series spilled to disk, copied into the .npz a chunk at a time (values, then its index, then its
        statistics from a second read): never more than `irlint.interp.tracespill.CHUNK` bytes of it in
        memory. Its rows' statistics say `spilled`, as those of a tensor spilled alone do."""
        store = self._store
        name = f"{SERIES}{len(index['series'])}"
        with zf.open(f"{name}.npy", "w", force_zip64=True) as f:
            _write_header(f, (s.rows, *s.shape), s.dtype)
            for chunk in store.chunks(s):
                f.write(chunk.tobytes())
        with zf.open(f"{name}.index.npy", "w", force_zip64=True) as f:
            _write_header(f, (s.rows, 1 + s.depth), np.dtype(np.int64))
            for data in store.index_bytes(s):
                f.write(data)
        entry = {"values": name, "key": [s.pre, s.post], "depth": s.depth, "shape": list(s.shape),
                 "dtype": str(s.dtype), "spilled": True}
        width = 0 if not s.row_bytes else 2 if s.dtype == np.bool_ else 5
        if width:
            with zf.open(f"{name}.stats.npy", "w", force_zip64=True) as f:
                _write_header(f, (s.rows, width), np.dtype(np.float64))
                for chunk in store.chunks(s):
                    f.write(_row_stats(chunk).tobytes())  # type: ignore[union-attr]
            entry["stats"] = f"{name}.stats"
        index["series"].append(entry)

    def close(self) -> None:
        self._store.close()


@functools.cache  # a run asks once per loop; layouts are few and their counters keep no state
def _batch_counter(layout: tuple[int, ...]) -> Callable[[list[np.ndarray], int], int]:
    """The exact bytes of a flat batch of `n` records laid out as `layout` (irlint.interp.events) says:
    a FRESH position's tensors are read one by one, a FIXED one's once, and a back edge's are its
    Result's of the iteration before (the batch's first record is read whole)."""
    width = len(layout)
    fresh = [p for p, r in enumerate(layout) if r == FRESH]
    fixed = [p for p, r in enumerate(layout) if r == FIXED]
    carried = [(p, r) for p, r in enumerate(layout) if r >= 0]
    if any(layout[r] >= 0 for _p, r in carried):
        raise ValueError(f"a back edge in batch layout {layout} starts at another back edge")

    def count(values: list[np.ndarray], n: int) -> int:
        if n == 1:
            return sum(map(_NBYTES, values))
        column = [0] * width
        for p in fresh:
            column[p] = sum(map(_NBYTES, values[p::width]))
        for p in fixed:
            column[p] = n * values[p].nbytes
        size = sum(column)
        last = (n - 1) * width
        for p, r in carried:  # its first tensor, then its Result's but the last
            size += values[p].nbytes + column[r] - values[last + r].nbytes
        return size

    return count


def _rows(values: Sequence[Any], n: int) -> Iterator[tuple[Any, ...]]:
    """A flat batch of `n` iterations, one tuple per iteration."""
    return zip(*[iter(values)] * (len(values) // n))


def _at(frames: Frames) -> str:
    if not frames:
        return ""
    if len(frames) == 1:
        return f"@{frames[0][1]}"
    return "@" + ".".join(str(k) for _p, k in frames)


def _iterations(entries: list[tuple[Any, ...]]) -> np.ndarray:
    """The iteration numbers of each log entry, outer first: an (n, depth) int64 array."""
    frames = [e[1] for e in entries]
    depth = len(frames[0])
    if any(len(f) != depth for f in frames):  # not from one executor; keep it right anyway
        raise ValueError("a layer's records have different loop depths")
    cols = [[f[d][1] for f in frames] for d in range(depth)]
    if entries[0][2].__class__ is not str:  # an iteration of a batch: the frames are the enclosing loops'
        cols.append([e[2] for e in entries])
    return np.array(cols, np.int64).T.reshape(len(entries), len(cols))


def _stackable(column: Sequence[Any]) -> bool:
    """Same type, shape and a plain numeric or bool dtype in every iteration: one stacked array."""
    if set(map(type, column)) != {np.ndarray}:
        return False
    dtypes = set(map(attrgetter("dtype"), column))
    if len(dtypes) != 1 or next(iter(dtypes)).kind not in "biufc":
        return False
    return len(set(map(attrgetter("shape"), column))) == 1


def _write_header(f: IO[bytes], shape: tuple[int, ...], dtype: np.dtype) -> None:
    header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_2_0(f, header) if len(repr(shape)) > 60000 else \
        np.lib.format.write_array_header_1_0(f, header)


def _inner(path: str, i: Any) -> str:
    """A body layer's path: TI/Loop ids are ints (``2/body/0``); an If's name their branch
    (``3/then_body/0``, irlint.interp.branches)."""
    return f"{path}/{i}" if type(i) is str else f"{path}/body/{i}"


def _ids(values: dict[int, np.ndarray] | Any, branch: str | None) -> tuple[Any, ...]:
    """The body layer ids of an iteration event; an If's name their branch, as its listener calls do."""
    return tuple(values) if branch is None else tuple(f"{branch}_body/{i}" for i in values)


def _json_array(text: str) -> bytes:
    import io

    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.array(text), allow_pickle=False)
    return buf.getvalue()


class TraceFormatError(ValueError):
    """The arrays are not a trace written by `irlint run --trace` (the message says why)."""


def trace_arrays(arrays: Mapping[str, np.ndarray]) -> tuple[dict[str, np.ndarray], dict[str, dict[str, object]]]:
    """Values and stats by key, in recording order, from a trace file's members (format 1 or 2)."""
    raw = arrays.get("__stats__")
    if raw is None or raw.dtype.kind != "U" or raw.shape != ():
        raise TraceFormatError("it has no __stats__ index")
    try:
        index = json.loads(str(raw))
    except ValueError as e:
        raise TraceFormatError("its __stats__ index is not JSON") from e
    except RecursionError:  # a file can nest its JSON thousands deep; irlint never writes that
        raise TraceFormatError("its __stats__ index is nested too deeply") from None
    if not isinstance(index, dict):
        raise TraceFormatError("its __stats__ index is not a JSON object")
    if index.get("format") is None:  # format 1: one array per key, __stats__ maps every key to its stats
        values = {k: v for k, v in arrays.items() if k != "__stats__"}
        stats = {k: index.get(k, {}) for k in values}
        if not all(isinstance(s, dict) for s in stats.values()):
            raise TraceFormatError("its __stats__ index holds stats that are not JSON objects")
        return values, stats
    if index.get("format") != FORMAT:
        raise TraceFormatError(f"it is trace format {index.get('format')!r}; this irlint reads formats 1 and {FORMAT}")
    try:
        return _expand(arrays, index)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError, OverflowError) as e:  # (int(Infinity))
        raise TraceFormatError(f"its __stats__ index does not match its arrays ({type(e).__name__}: {e})") from e


def _expand(arrays: Mapping[str, np.ndarray], index: dict[str, Any]
            ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, object]]]:
    found: list[tuple[int, str, np.ndarray, dict[str, object]]] = []
    for s in index["series"]:
        stacked = arrays[s["values"]]
        rows = arrays[s["values"] + ".index"]
        row_stats = arrays[s["stats"]] if "stats" in s else None
        pre, post = s["key"]
        shape, dtype = list(s["shape"]), str(s["dtype"])
        spilled = {"spilled": True} if s.get("spilled") is True else {}
        if rows.ndim != 2 or rows.shape != (len(stacked), 1 + int(s["depth"])) or list(stacked.shape[1:]) != shape:
            raise ValueError(f"series {s['values']!r} has {len(rows)} index rows for {stacked.shape[0]} values")
        for r, row in enumerate(rows.tolist()):
            its = row[1:]
            k = pre + ("@" + ".".join(map(str, its)) if its else "") + post
            found.append((row[0], k, stacked[r, ...], _stats_from_row(shape, dtype,
                                                                 None if row_stats is None else row_stats[r])
                           | spilled))
    for o, k, s in index["keys"]:
        found.append((int(o), str(k), arrays[k], dict(s)))
    found.sort(key=lambda t: t[0])
    return {k: v for _o, k, v, _s in found}, {k: s for _o, k, _v, s in found}


def load_trace(path: str | os.PathLike[str]) -> tuple[dict[str, np.ndarray], dict[str, dict[str, object]]]:
    """Values and stats of a saved trace (format 1 or 2), by key in recording order."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    return trace_arrays(arrays)
