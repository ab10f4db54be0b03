"""W3xx: the .bin and the Const layers that read it: sizes and offsets, and the layout of string Consts' bytes."""

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


def _string_layout(raw: bytes, elements: int) -> str:
    """Why OpenVINO refuses these bytes as a packed string tensor of `elements` strings (a little-endian
    i32 count, count + 1 i32 offsets into the characters, the characters), or ""."""
    if len(raw) < 4:
        return (f"its {len(raw)} bytes hold no string count; OpenVINO refuses it (\"no strings count in the packed "
                "string tensor\")")
    count = int.from_bytes(raw[:4], "little", signed=True)
    if count != elements:
        return (f"its bytes count {count} strings for the {elements} its shape holds; OpenVINO refuses it, fails at "
                "compile or reads past the Const's bytes")
    header = 4 * (count + 2)
    if header > len(raw):
        return (f"the count and offsets of {count} strings take {header} bytes, size is {len(raw)}; OpenVINO refuses "
                "it (\"header exceeds provided buffer size\")")
    offsets = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "little", signed=True) for i in range(count + 1)]
    chars = len(raw) - header
    for i in range(count):
        if offsets[i] > offsets[i + 1]:
            return (f"string {i} begins at {offsets[i]} and ends at {offsets[i + 1]}; OpenVINO refuses it (\"begin "
                    "offset greater than end offset\")")
    if offsets[-1] > chars:
        return (f"the last string ends at {offsets[-1]}, past the {chars} bytes of characters; OpenVINO refuses it "
                "(\"string offset exceeds buffer bounds\")")
    return ""


@rule("W304", "string-const-malformed", scope="graph")
def string_const_malformed(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A string Const's bytes are not the packed string tensor its shape needs.

    What it checks:
    The bytes of a Const of `element_type="string"`: a little-endian i32 count equal to the number
    of elements of `shape`, then count + 1 i32 offsets that never decrease, the last within the
    characters that follow.

    Why it matters:
    OpenVINO refuses such a Const at read ("Incorrect packed string tensor format: no strings count
    in the packed string tensor", "header exceeds provided buffer size", "begin offset greater
    than end offset", "string offset exceeds buffer bounds"); a count below the shape's is read,
    and then compiling fails ("std::bad_alloc") or the missing strings are read from memory past
    the Const. None of these messages names the layer.

    Example:
    ```xml
    <data element_type="string" shape="2" offset="0" size="10"/>  <!-- 2 strings need 16 bytes before their text -->
    ```

    How to fix:
    Write the Const with OpenVINO (`ov.Tensor` of a numpy string array, `save_model`), or fix
    `size`/`offset` to the bytes it wrote.
    """
    for layer in graph.layers:  # one pass over the level: string Consts are rare
        if layer.type == "Const" and layer.data.get("element_type") == "string":
            yield from _malformed_strings(ctx, layer)


def _malformed_strings(ctx: Context, layer: Layer) -> Iterator[Finding]:
    """W304's finding on `layer`, a string Const."""
    w = ctx.model.weights
    off, size = _int(layer, "offset"), _int(layer, "size")
    try:
        shape = parse_shape(layer.data.get("shape", ""))
    except ValueError:
        return
    if off is None or size is None or shape is None or any(not d.is_static for d in shape) \
            or not w.contains(off, size):
        return  # W302 and T204 report what keeps the bytes from being read
    elements = 1
    for d in shape:
        elements *= d.lo
    why = _string_layout(bytes(w.raw(off, size)), elements)
    if why:
        yield Finding(f"{layer.describe()}: string Const of shape [{layer.data.get('shape')}]: {why}",
                      layer.data_loc or layer.loc, layer=layer.path)
