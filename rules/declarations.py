"""T20x: what the file declares must agree with itself (edge ends, Parameter/Const attributes vs ports).

These need no shape inference: they compare two places of the same file. Inferred-vs-declared
checks live with the shape-aware rules.
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint import causes
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.model import Edge, Graph, Layer, Port
from irlint.rule import Finding, rule
from irlint.shapes.dimless import known_scalar_source
from irlint.shapes.merge import fits
from irlint.types import Shape, element_type, format_shape, parse_shape


def shapes_disagree(a: Shape | None, b: Shape | None) -> bool:
    """True if both shapes are known and differ in rank or in a static dim (stricter than
    `irlint.shapes.merge.fits`: a Parameter's `<data shape>` and its port name one rank)."""
    if a is None or b is None or a == b:
        return False
    if len(a) != len(b):
        return True
    return any(not x.compatible(y) for x, y in zip(a, b))


def _edge_ends(graph: Graph) -> Iterator[tuple[Edge, Layer, Port, Layer, Port]]:
    """Every edge whose two ends are real ports, with those ports. Resolved again by each rule
    that asks: keeping the list costs 9 MB at 100,000 edges, resolving it ~0.05 s."""
    by_id = graph.by_id
    for e in graph.edges:
        src, dst = by_id.get(e.from_layer), by_id.get(e.to_layer)  # type: ignore[arg-type]
        if src is None or dst is None or e.from_port is None or e.to_port is None:
            continue
        sp, dp = src.output(e.from_port), dst.input(e.to_port)
        if sp is not None and dp is not None:
            yield e, src, sp, dst, dp


def _ends_disagree(e: Edge, src: Layer, sp: Port, dst: Layer, dp: Port, produced: str, declared: str,
                   hint: str | None = None) -> Finding:
    """The finding of T201/T202: the edge's two ends declare `produced` and `declared` (a precision
    or a shape), reported at the input port that receives the producer's value."""
    return Finding(
        f"edge {src.id}:{sp.id} -> {dst.id}:{dp.id}: {src.describe()} produces {produced} but "
        f"{dst.describe()} declares {declared}",
        dst.port_loc(dp),
        layer=dst.path,
        port=dp.id,
        related=(Related(src.port_loc(sp), f"output port {sp.id} of '{src.name}' declares {produced}"),
                 Related(e.loc, "the edge")),
        hint=hint,
        because=(causes.port(src, sp.id), causes.port(dst, dp.id)),
        effect=f"makes input port {dp.id} of {dst.describe()} receive {produced} from '{src.name}' instead of "
        f"its declared {declared}",
    )


@rule("T201", "edge-precision-mismatch", scope="graph")
def edge_precision_mismatch(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """The two ends of an edge declare different precisions.

    What it checks:
    When both the output port and the input port of an edge carry `precision`, they are equal.

    Why it matters:
    A tensor has one element type. OpenVINO ignores declared precisions and re-infers them, so a
    mismatch means the file does not describe the model OpenVINO will build.

    Example:
    ```xml
    <port id="2" precision="FP32"> ... <port id="0" precision="FP16">  <!-- same edge -->
    ```

    How to fix:
    Make both ends declare the producer's element type (insert a Convert if a cast was meant).
    """
    for e, src, sp, dst, dp in _edge_ends(graph):
        if sp.precision is not None and dp.precision is not None and sp.precision != dp.precision:
            yield _ends_disagree(e, src, sp, dst, dp, sp.precision.precision, dp.precision.precision,
                                 hint="insert a Convert if a cast is intended")


@rule("T202", "edge-shape-mismatch", scope="graph")
def edge_shape_mismatch(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """The two ends of an edge declare incompatible dims.

    What it checks:
    The `<dim>`s of an edge's output port and input port have the same rank and compatible dims
    (a dynamic dim or interval is compatible with any size it contains). An end without `<dim>` is a
    scalar or a dynamic rank; it counts as a scalar only when its producer is a Const or a
    Parameter of `shape=""`.

    Why it matters:
    OpenVINO re-infers shapes and ignores the declared dims, so the file lies about the model;
    tools that trust the dims (and readers) are misled.

    Example:
    ```xml
    <port id="2"><dim>1</dim><dim>256</dim></port> ... <port id="0"><dim>1</dim><dim>128</dim></port>
    ```

    How to fix:
    Re-export the model, or correct the dims of the wrong end.
    """
    for e, src, sp, dst, dp in _edge_ends(graph):
        if sp.shape != dp.shape and not fits(sp.shape, dp.shape) and not _dynamic_rank_end(src, sp, dp):
            yield _ends_disagree(e, src, sp, dst, dp, format_shape(sp.shape), format_shape(dp.shape))


def _dynamic_rank_end(src: Layer, sp: Port, dp: Port) -> bool:
    """True when one end has no `<dim>` and may be a dynamic rank, which is compatible with any shape.

    A port without dims is a scalar or a dynamic rank (irlint.shapes.dimless); here it counts as a
    scalar only when the producer's own declaration says so (a Const, a Parameter of `shape=""`).
    """
    if sp.shape == ():
        return known_scalar_source(src) is not True
    return dp.shape == ()


def _declaration_findings(layer: Layer, what: str) -> Iterator[Finding]:
    if not layer.outputs:
        return
    port = layer.outputs[0]
    et_text = layer.data.get("element_type")
    et = element_type(et_text) if et_text is not None else None
    if et is not None and port.precision is not None and et != port.precision and not et.is_dynamic:
        yield Finding(
            f"{layer.describe()}: element_type={et_text} but its output port declares "
            f"{port.precision.precision}",
            layer.port_loc(port),
            layer=layer.path,
            port=port.id,
            related=(Related(layer.data_loc or layer.loc, f"the {what}'s element_type"),),
            claims=(causes.layer(layer),), because=(causes.layer(layer), causes.port(layer, port.id)),
        )
    shape_text = layer.data.get("shape")
    if shape_text is None:
        return
    try:
        declared = parse_shape(shape_text)
    except ValueError as err:
        yield Finding(f"{layer.describe()}: shape={shape_text!r}: {err}", layer.data_loc or layer.loc,
                      layer=layer.path)
        return
    if shapes_disagree(declared, port.shape):
        yield Finding(
            f"{layer.describe()}: shape=\"{shape_text}\" but its output port declares {format_shape(port.shape)}",
            layer.port_loc(port),
            layer=layer.path,
            port=port.id,
            related=(Related(layer.data_loc or layer.loc, f"the {what}'s shape attribute"),),
            claims=(causes.layer(layer),), because=(causes.layer(layer), causes.port(layer, port.id)),
        )


@rule("T203", "parameter-declaration-mismatch", types=("Parameter",))
def parameter_declaration_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Parameter's `shape`/`element_type` disagree with its output port.

    What it checks:
    `<data shape element_type>` of a Parameter against the dims and precision of its output port.

    Why it matters:
    OpenVINO builds the Parameter from `<data>` and ignores the port, so everything downstream
    that was written for the port's shape is wrong.

    Example:
    ```xml
    <data shape="1,5,4" element_type="f32"/> <output><port id="0" precision="FP32"><dim>1</dim><dim>4</dim></port>
    ```

    How to fix:
    Make `<data>` and the port agree (usually the port is stale after an edit).
    """
    yield from _declaration_findings(layer, "Parameter")


@rule("T204", "const-declaration-mismatch", types=("Const",))
def const_declaration_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Const's `shape`/`element_type` disagree with its output port.

    What it checks:
    `<data shape element_type>` of a Const against the dims and precision of its output port.

    Why it matters:
    OpenVINO reads the bytes with `<data>` and ignores the port; the consumers were probably
    written for the port's shape.

    Example:
    ```xml
    <data element_type="i64" shape="2" offset="0" size="16"/> <output><port id="0" precision="I32"><dim>2</dim></port>
    ```

    How to fix:
    Make `<data>` and the port agree.
    """
    yield from _declaration_findings(layer, "Const")
