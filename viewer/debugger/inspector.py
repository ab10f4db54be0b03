"""Text for the tensor inspector: shape, dtype, stats, NaN/Inf, values (2-D slices), diff to the previous iteration."""

from __future__ import annotations

import numpy as np
from irlint.viewer.debugger.text import keep_tail

from irlint.interp.trace import stats


def full_stats(a: np.ndarray) -> dict[str, object]:
    """The trace's `stats` with min and max over every value but NaN (±Inf included: `stats` keeps them to
    the finite values, which hid an Inf as `min 6 max 6` for `[inf -inf 6 6]`); the mean stays the finite
    values' (`mean` of the finite ones, None when there are none)."""
    s = stats(a)
    if s.get("inf"):
        with np.errstate(invalid="ignore"):
            f = np.asarray(a, dtype=np.float64)
            s["min"], s["max"] = float(np.nanmin(f)), float(np.nanmax(f))
    return s


def changed_elements(a: np.ndarray, prev: np.ndarray) -> tuple[float, int, int]:
    """(max |diff| over the finite differences, elements changed, of them to or from NaN/±Inf): a value that
    turns into NaN counts as changed (NaN - 6 is NaN, which no `> 0` test counts); NaN to NaN does not."""
    x, y = a.astype(np.float64), prev.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        same = (x == y) | (np.isnan(x) & np.isnan(y))
        d = np.abs(x - y)
    finite = np.isfinite(d)
    changed = int((~same).sum())
    return float(d[finite].max(initial=0)), changed, int((~same & ~finite).sum())


def summary(a: np.ndarray) -> str:
    s = full_stats(a)
    parts = [f"{short_dtype(a.dtype)}{s['shape']}".replace(" ", "")]
    for k in ("min", "max", "mean"):
        if s.get(k) is not None:
            parts.append(f"{k} {s[k]:.3g}")
    for k in ("nan", "inf", "true", "false"):
        if s.get(k):
            parts.append(f"{k} {s[k]}")
    if a.size == 1:
        parts.append(f"= {scalar_text(a)}")
    return " ".join(parts)


def short_dtype(dt: np.dtype) -> str:
    """f32, i64, u8, bool: the IR's spelling, shorter than numpy's."""
    return "bool" if dt.kind == "b" else f"{dt.kind}{dt.itemsize * 8}"


def scalar_text(a: np.ndarray) -> str:
    v = np.asarray(a).reshape(-1)[0]
    return f"{v:.6g}" if np.asarray(a).dtype.kind == "f" else str(v.item())


def port_names(layer, n: int) -> list[str]:  # type: ignore[no-untyped-def]
    """Labels of a recorded tuple: output port ids (a Result records what it receives: 'in')."""
    if layer.type == "Result" or not layer.outputs:
        return ["in"] * min(n, 1) + [f"in{i}" for i in range(1, n)]
    ids = [p.id for p in layer.outputs]
    return [f"out{ids[i]}" if i < len(ids) else f"out?{i}" for i in range(n)]


def as_rows(a: np.ndarray, index: tuple[int, ...] = (), limit: int = 64) -> list[list[str]]:
    """A 2-D view of the tensor for a table: leading dims fixed by `index` (default 0s)."""
    v = np.asarray(a)
    if v.ndim == 0:
        return [[f"{v.item():.6g}" if v.dtype.kind == "f" else str(v.item())]]
    while v.ndim > 2:
        i = index[0] if index else 0
        index = index[1:]
        v = v[min(i, v.shape[0] - 1)]
    if v.ndim == 1:
        v = v.reshape(1, -1)
    fmt = (lambda x: f"{x:.5g}") if v.dtype.kind == "f" else str
    return [[fmt(x) for x in row[:limit]] for row in v[:limit]]


def view_title(a: np.ndarray, index: int, width: int = 0, port: str = "") -> str:
    """What part of the tensor the table shows, with the indices the row/column labels stand for, after the
    port's name; said shorter where it is wider than `width` (0: any) so the header never runs off."""
    head = f"{port} " if port else ""
    if a.ndim == 0:
        return f"{head}scalar"
    if a.ndim == 1:
        variants = [f"{head}[:{a.shape[0]}] (columns: index)", f"{head}[:{a.shape[0]}]"]
    else:
        lead = f"[{min(index, a.shape[0] - 1)}, " + "0, " * (a.ndim - 3) if a.ndim > 2 else "["
        shape = ",".join(map(str, a.shape))
        more = a.ndim > 2
        variants = [
            f"{head}{lead}rows, columns] of {list(a.shape)}" + ("  (j/k: other slices)" if more else ""),
            f"{head}{lead}rows, cols] of [{shape}]" + (" (j/k: slices)" if more else ""),
            f"{head}{lead}rows, cols] of [{shape}]" + (" j/k" if more else ""),
            f"{head}{lead.replace(', ', ',')}r,c] of [{shape}]",
        ]
    return next((v for v in variants if not width or len(v) <= width), variants[-1])


def diff_text(a: np.ndarray, prev: np.ndarray | None) -> str:
    """How the tensor differs from the previous recorded iteration's (booleans: how many flipped)."""
    if prev is None:
        return "no previous iteration"
    if prev.shape != a.shape:
        return f"vs previous it: shape {list(prev.shape)} -> {list(a.shape)}"
    if a.dtype.kind == "b" or prev.dtype.kind == "b":
        changed = int(np.count_nonzero(a != prev))
        return f"vs previous it: {changed}/{a.size} changed"
    if a.dtype.kind not in "fiu" or prev.dtype.kind not in "fiu":
        return f"vs previous it: {int(np.count_nonzero(a != prev))}/{a.size} changed"
    most, changed, odd = changed_elements(a, prev)
    return f"vs previous it: max |diff| {most:.3g}, {changed}/{a.size} changed" + (
        f" ({odd} to or from NaN/Inf)" if odd else ""
    )


def preview(a: np.ndarray, digits: int = 3) -> str:
    """A tensor in a few characters for one line: `f32[1,3] [-1.2,0.8]`, `i64[] = 5`, NaN/Inf counted."""
    s = full_stats(a)
    out = f"{short_dtype(a.dtype)}{s['shape']}".replace(" ", "")
    if a.size == 1:
        out += f" = {scalar_text(a)}"
    elif s.get("min") is not None:
        out += f" [{s['min']:.{digits}g},{s['max']:.{digits}g}]"
    elif s.get("true") is not None:
        out += f" {s['true']} true"
    for k in ("nan", "inf"):
        if s.get(k):
            out += f" {k} {s[k]}"
    return out


def short_diff(a: np.ndarray, prev: np.ndarray | None) -> str:
    """`diff_text` in a few characters, for one input's line: `Δ0.3 2/4` (max |diff|, elements changed)."""
    if prev is None:
        return ""
    if prev.shape != a.shape:
        return f"Δshape {list(prev.shape)}"
    if a.dtype.kind not in "fiu" or prev.dtype.kind not in "fiu":
        return f"Δ{int(np.count_nonzero(a != prev))}/{a.size}"
    most, changed, _odd = changed_elements(a, prev)
    return f"Δ{most:.3g} {changed}/{a.size}"


def input_text(
    port_id: object,
    producer: tuple[object, str, object] | None,
    value: str,
    change: str = "",
    width: int = 0,
    short_value: str = "",
) -> str:
    """One input of the inspected layer: `in1 ← 3 Tanh_5:2 f32[1,4] [-0.7,0.1] Δ0.05 4/4` (producer id,
    name and output port, the value, its change). Where that is wider than `width` (0: any), it is said
    shorter, in this order: without the count of changed elements, with the producer's name's tail only
    (`…Sigmoid_2`: Keras names share their start), with `short_value` (fewer digits), without the value
    range, without the change."""
    head = f"in{port_id} ← "
    if producer is None:
        return head + "(no edge)"
    src_id, name, port = producer

    def line(name: str, value: str, change: str) -> str:
        return " ".join(x for x in (f"{head}{src_id} {name}:{port}", value, change) if x)

    out = line(name, value, change)
    if not width or len(out) <= width:
        return out
    change = change.split(" ")[0]
    cut = keep_tail(name, max(6, len(name) - (len(line(name, value, change)) - width)))
    typed = value.split(" [")[0]
    for v, c in ((value, change), (short_value or value, change), (typed, change), (typed, "")):
        for n in (name, cut):
            out = line(n, v, c)
            if len(out) <= width:
                return out
    return out


def attribute_items(layer) -> list[str]:  # type: ignore[no-untyped-def]
    """The layer's `<data>` attributes as `name=value`, in file order (an LSTMCell's hidden_size, clip,
    activations; a Const's element_type, shape, offset, size)."""
    return [f"{k}={v}" for k, v in layer.data.items()]


def _body_name(body, layer_id: int | None) -> str:  # type: ignore[no-untyped-def]
    la = body.by_id.get(layer_id) if body is not None and layer_id is not None else None
    return f"{layer_id} {la.name}" if la is not None else str(layer_id)


def port_map_items(body, entries) -> list[str]:  # type: ignore[no-untyped-def]
    """A TI/Loop/If port map: `in0→0 x_t axis 1` (outer input port to body Parameter), `out3←11 h_next`
    (body Result to outer output port), a Loop's special ports by their purpose
    (`current_iteration→0 i`, `execution_condition←15 cond`)."""
    out = []
    for e in entries:
        inner = _body_name(body, e.internal_layer_id)
        outer = f"in{e.external_port_id}" if e.direction == "input" else f"out{e.external_port_id}"
        if e.purpose and (e.external_port_id is None or e.external_port_id < 0):
            outer = e.purpose  # a Loop's special body port: no outer port
        text = f"{outer}→{inner}" if e.direction == "input" else f"{outer}←{inner}"
        if e.axis is not None:
            text += f" axis {e.axis}"
            if e.stride not in (None, 1):
                text += f" stride {e.stride}"
        if e.purpose and outer != e.purpose:
            text += f" ({e.purpose})"
        out.append(text)
    return out


def back_edge_items(body, edges) -> list[str]:  # type: ignore[no-untyped-def]
    """`11 h_next→1 h_prev`: the body Result whose value the Parameter gets in the next iteration."""
    return [f"{_body_name(body, e.from_layer)}→{_body_name(body, e.to_layer)}" for e in edges]


def structure_sections(layer) -> list[tuple[str, list[str]]]:  # type: ignore[no-untyped-def]
    """(heading, items) of what a TI/Loop or If is made of besides its attributes: the port map and back
    edges of a body, each branch of an If with its size and port map."""
    out: list[tuple[str, list[str]]] = []
    if layer.body is not None:
        out.append(("port map:", port_map_items(layer.body, layer.port_map)))
        if layer.back_edges:
            out.append(("back edges:", back_edge_items(layer.body, layer.back_edges)))
    for b in layer.branches:
        out.append((f"{b.name} branch ({len(b.body.layers)} layers) port map:", port_map_items(b.body, b.port_map)))
    return out
