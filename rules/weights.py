"""W3xx: the .bin and the Const layers that read it. Only sizes and offsets are checked: never the bytes."""

from __future__ import annotations

from collections.abc import Iterator

from irlint import causes
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer
from irlint.rule import Finding, rule
from irlint.types import element_type, parse_shape


def _int(layer: Layer, name: str) -> int | None:
    try:
        v = int(layer.data[name])
    except (KeyError, ValueError):
        return None
    return v if v >= 0 else None


def const_byte_count(layer: Layer) -> int | None:
    """Bytes the Const's `shape` and `element_type` need, or None if they cannot be read."""
    et = element_type(layer.data.get("element_type", ""))
    try:
        shape = parse_shape(layer.data.get("shape", ""))
    except ValueError:
        return None
    if et is None or et.bits == 0 or shape is None or any(not d.is_static for d in shape):
        return None  # a string Const's bytes are a count, offsets and characters: not fixed by its shape
    count = 1
    for d in shape:
        count *= d.lo
    return et.nbytes(count)


@rule("W301", "weights-file-unusable", scope="model")
def weights_file_unusable(ctx: Context) -> Iterator[Finding]:
    """The model has Const layers but its .bin is missing, a directory or unreadable.

    What it checks:
    That the weights file (MODEL.bin beside MODEL.xml, or `--weights PATH`) can be opened when
    at least one Const layer reads from it.

    Why it matters:
    OpenVINO fails to read the model; without the weights nothing can be run either.

    Example:
    ```text
    model.xml beside no model.bin
    ```

    How to fix:
    Ship the .bin with the .xml (same base name) or pass `--weights PATH`.
    """
    w = ctx.model.weights
    if w.usable:
        return
    consts = [la for _g, la in ctx.model.layers() if la.type == "Const" and _int(la, "size")]
    if consts:
        yield Finding(
            f"the weights file {w.path} {w.problem}, but {len(consts)} Const layer"
            f"{'s read' if len(consts) > 1 else ' reads'} from it",
            consts[0].loc,
            layer=consts[0].path,
            hint="put MODEL.bin beside MODEL.xml or pass --weights PATH",
        )


@rule("W302", "const-outside-weights", types=("Const",))
def const_outside_weights(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Const's `offset` + `size` reach past the end of the .bin (a short or wrong .bin).

    What it checks:
    `offset + size <= size of the .bin` for every Const, at every level.

    Why it matters:
    OpenVINO refuses the model ("Incorrect weights in bin file") without naming the layer; a
    truncated download or a .bin from another export is the usual cause.

    Example:
    ```xml
    <data element_type="f32" shape="1024" offset="0" size="4096"/>  <!-- .bin is 1000 bytes -->
    ```

    How to fix:
    Use the .bin written together with this .xml.
    """
    w = ctx.model.weights
    off, size = _int(layer, "offset"), _int(layer, "size")
    if not w.usable or off is None or size is None:
        return
    if off + size > w.size:
        loc = layer.data_loc or layer.loc
        yield Finding(
            f"{layer.describe()} reads bytes {off}..{off + size} but {w.path} has only {w.size} bytes",
            loc,
            layer=layer.path,
            hint="the .bin is truncated or belongs to another export of the model",
        )


@rule("W303", "const-size-mismatch", types=("Const",))
def const_size_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Const's `size` differs from what its `shape` and `element_type` need.

    What it checks:
    `size == product(shape) x element size` (sub-byte types packed).

    Why it matters:
    OpenVINO refuses a size that is too small and silently ignores extra bytes; either way the
    offsets of the model's weights are probably wrong.

    Example:
    ```xml
    <data element_type="f32" shape="2, 3" offset="0" size="20"/>  <!-- needs 24 -->
    ```

    How to fix:
    Make `size` match the shape, or the shape match the data.
    """
    size = _int(layer, "size")
    need = const_byte_count(layer)
    if size is None or need is None or size == need or (need == 0 and size <= 1):
        return  # OpenVINO writes size="1" for an empty Const
    d = layer.data
    yield Finding(
        f"{layer.describe()}: shape [{d.get('shape')}] of {d.get('element_type')} needs {need} bytes, "
        f"size is {size}",
        layer.data_loc or layer.loc,
        layer=layer.path,
        because=(causes.layer(layer),),  # a wrong element_type that another rule reports makes the size wrong too
    )
