"""G1xx: graph structure at every level (top level and each body): ids, edges, ports, cycles."""

from __future__ import annotations

from collections.abc import Iterator

from irlint import causes
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.index import GraphIndex
from irlint.ir.model import BRANCHING, CONTROL_FLOW, Edge, Graph, Layer, Port
from irlint.ir.opsets import opset_holds
from irlint.ops import lookup
from irlint.rule import Finding, rule

# Types irlint knows without an op module: they are handled by the loader, shapes and interpreter.
STRUCTURAL_TYPES = frozenset({"Parameter", "Const", "Result", "TensorIterator", "Loop", "If"})


def _where(graph: Graph) -> str:
    return f"the {graph.kind} of layer {graph.owner}" if graph.is_body else "the top-level graph"


@rule("G101", "duplicate-layer-id", scope="graph")
def duplicate_layer_id(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """Two layers of one graph level share an id.

    What it checks:
    Layer ids within one graph level (ids restart at 0 inside every body, so equal ids in
    different levels are fine).

    Why it matters:
    Edges, port_map entries and back edges name layers by id; with a duplicate, which layer they
    mean is undefined. OpenVINO accepts the file silently and wires one of them.

    Example:
    ```xml
    <layer id="3" name="a" type="Relu" version="opset1"> ...
    <layer id="3" name="b" type="Tanh" version="opset1"> ...
    ```

    How to fix:
    Give every layer of the level a unique id and update the edges that meant the second one.
    """
    first = graph.by_id  # the first layer of each id (no second dict: 5 MB at 100,000 layers)
    for layer in graph.layers:
        if layer.id is None:
            continue
        other = first[layer.id]
        if other is not layer:
            yield Finding(
                f"{layer.describe()} reuses id {layer.id} in {_where(graph)}",
                layer.loc,
                layer=layer.path,
                related=(Related(other.loc, f"id {layer.id} is first used by '{other.name}' ({other.type})"),),
                hint="layer ids must be unique within a graph level",
                claims=(causes.ids(graph.where),),
            )


@rule("G102", "edge-unknown-layer", scope="graph")
def edge_unknown_layer(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """An edge names a layer id that does not exist at its graph level.

    What it checks:
    `from-layer` and `to-layer` of every `<edge>` in `<edges>` (top level and bodies).

    Why it matters:
    OpenVINO refuses the model, naming neither the line nor the edge.

    Example:
    ```xml
    <edge from-layer="0" from-port="0" to-layer="42" to-port="0"/>  <!-- no layer 42 -->
    ```

    How to fix:
    Point the edge at an existing layer; note that layer ids restart at 0 in every body, so an
    edge cannot cross between a body and its parent.
    """
    for e in graph.edges:
        for end, lid in (("from-layer", e.from_layer), ("to-layer", e.to_layer)):
            if lid is not None and lid not in graph.by_id:
                dst = graph.by_id.get(e.to_layer) if end == "from-layer" else None  # type: ignore[arg-type]
                yield Finding(
                    f"edge {end}={lid}: no layer {lid} in {_where(graph)}",
                    e.loc,
                    layer=graph.owner or None,
                    hint="edges connect layers of the same level; bodies connect through port_map",
                    claims=(causes.edges_into(dst),) if dst is not None else (),
                    because=(causes.ids(graph.where),),
                )


@rule("G103", "edge-unknown-port", scope="graph")
def edge_unknown_port(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """An edge names a port the layer does not have, or the wrong kind of port.

    What it checks:
    `from-port` must be an output port of the source layer and `to-port` an input port of the
    target layer.

    Why it matters:
    OpenVINO refuses the model ("Incorrect edge" without a line), or for a port id that exists on
    the wrong side it connects something you did not mean.

    Example:
    ```xml
    <edge from-layer="2" from-port="0" to-layer="3" to-port="0"/>  <!-- port 0 is an input of layer 2 -->
    ```

    How to fix:
    Use the ids of the `<output>` ports of the source and the `<input>` ports of the target.
    """
    for e in graph.edges:
        src, dst = graph.layer(e.from_layer), graph.layer(e.to_layer)
        if src is not None and e.from_port is not None and src.output(e.from_port) is None:
            yield _not_its_port(e, src, e.from_port, "from")
        if dst is not None and e.to_port is not None and dst.input(e.to_port) is None:
            yield _not_its_port(e, dst, e.to_port, "to")


def _not_its_port(e: Edge, layer: Layer, port: int, end: str) -> Finding:
    """G103's finding: the edge's `end` ("from" or "to") names `port`, which is not an output port
    (from) or an input port (to) of `layer`."""
    if end == "from":
        want, wrong, ports = "output", layer.input(port), layer.outputs
    else:
        want, wrong, ports = "input", layer.output(port), layer.inputs
    kind = ("an output port" if want == "input" else "an input port") if wrong is not None else "not a port"
    return Finding(
        f"edge {end}-port={port}: {kind} of {layer.describe()}; it has {want} ports {[p.id for p in ports]}",
        e.loc,
        layer=layer.path,
        port=port,
        related=(Related(layer.loc, f"'{layer.name}' is declared here"),),
        claims=(causes.edges_into(layer),) if end == "to" else (),
        because=(causes.port_ids(layer),),  # the port it named may have been renamed to a duplicate
    )


@rule("G104", "input-not-connected", scope="graph")
def input_not_connected(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """An input port of a layer is fed by no edge.

    What it checks:
    Every `<input>` port of every layer has an edge ending in it.

    Why it matters:
    OpenVINO refuses the model with an error that names an input index, not the file position.

    Example:
    ```xml
    <layer id="5" type="Add" ...><input><port id="0"/><port id="1"/></input> ...  <!-- no edge to port 1 -->
    ```

    How to fix:
    Add the missing `<edge>` or remove the port.
    """
    is_fed = ctx.index(graph).is_fed
    for layer in graph.layers:  # one pass over the level (no per-layer dispatch)
        for p in layer.inputs:
            if p.id is not None and layer.id is not None and not is_fed(layer.id, p.id):
                yield Finding(
                    f"input port {p.id} of {layer.describe()} is not connected",
                    layer.port_loc(p),
                    layer=layer.path,
                    port=p.id,
                    hint="every input port needs exactly one incoming <edge>",
                    because=(causes.edges_into(layer),),
                    effect=f"leaves input port {p.id} of {layer.describe()} unconnected",
                )


@rule("G105", "input-multiple-edges", scope="graph")
def input_multiple_edges(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """An input port is fed by more than one edge.

    What it checks:
    At most one `<edge>` ends in each input port.

    Why it matters:
    A tensor input has exactly one producer; OpenVINO keeps one of the edges silently.

    Example:
    ```xml
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
    ```

    How to fix:
    Remove the extra edge, or add a port and use the one the op expects.
    """
    for layer_id, port_id, edges in ctx.index(graph).multiply_fed():
        layer = graph.layer(layer_id)
        if layer is None:
            continue
        p = layer.input(port_id)  # type: ignore[arg-type]
        if p is None:
            continue  # an edge into a port that is not an input: G103's business
        yield Finding(
            f"input port {p.id} of {layer.describe()} is fed by {len(edges)} edges",
            edges[1].loc,
            layer=layer.path,
            port=p.id,
            related=(
                *(Related(e.loc, "also feeds it") for e in edges[:1]),
                Related(layer.port_loc(p), "the port"),
            ),
        )


@rule("G106", "graph-cycle", scope="graph")
def graph_cycle(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """The edges of a graph level form a cycle.

    What it checks:
    That each level is acyclic. Recurrence is expressed with TensorIterator/Loop back edges, never
    with edges.

    Why it matters:
    The graph cannot be executed in any order; OpenVINO refuses it (or loops in its
    topological sort).

    Example:
    ```xml
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
    <edge from-layer="3" from-port="1" to-layer="2" to-port="1"/>
    ```

    How to fix:
    Break the cycle; to carry a value between iterations use a back edge inside a
    TensorIterator or Loop body.
    """

    order, placed = ctx.index(graph).sorted_layers()
    ordered = {la.id for la in order[:placed]}
    remaining = {la.id for la in graph.layers if la.id is not None and la.id not in ordered}
    if not remaining:
        return
    cycle = _shortest_cycle(graph, remaining)
    if cycle is None:
        return
    idx = ctx.index(graph)
    layers = [graph.by_id[i] for i in cycle]
    first = min(layers, key=lambda la: la.loc.line)
    at = cycle.index(first.id)  # type: ignore[arg-type]
    cycle = cycle[at:] + cycle[:at]
    chain = " -> ".join(str(i) for i in [*cycle, cycle[0]])
    closing = _closing_edge(idx, first, cycle[-1])
    notes = [Related(la.loc, f"'{la.name}' is in the cycle") for la in layers if la is not first]
    if closing is not None:
        notes.insert(0, Related(first.loc, f"'{first.name}', the first layer of the cycle in the file"))
    yield Finding(
        f"edges form a cycle through layers {chain} in {_where(graph)}"
        + (f"; the edge {cycle[-1]} -> {first.id} closes it" if closing is not None else ""),
        closing.loc if closing is not None else first.loc,
        layer=first.path,
        related=tuple(notes),
        hint="a recurrence belongs in a TensorIterator or Loop body with a back edge",
    )


def _shortest_cycle(graph: Graph, remaining: set[int | None]) -> list[int] | None:
    """The shortest cycle through the first layer in the file that lies on a cycle.

    Kahn's sort leaves the layers on or behind cycles; networkx finds the strongly connected parts
    of just those (a defect is rare, so the library is loaded only then) and one breadth-first
    search from that layer gives the shortest way back to it: the cycle a reader can check by eye.
    """
    import networkx as nx

    sub = nx.DiGraph()
    sub.add_nodes_from(remaining)
    for e in graph.edges:
        if e.from_layer in remaining and e.to_layer in remaining:
            sub.add_edge(e.from_layer, e.to_layer)
    on_cycle = [n for comp in nx.strongly_connected_components(sub) for n in comp
                if len(comp) > 1 or sub.has_edge(n, n)]
    if not on_cycle:
        return None
    start = min(on_cycle, key=lambda i: graph.by_id[i].loc.line)
    paths = nx.single_source_shortest_path(sub, start)
    back = [p for p in sub.predecessors(start) if p in paths]
    last = min(back, key=lambda p: (len(paths[p]), graph.by_id[p].loc.line))
    return list(paths[last])


def _closing_edge(idx: GraphIndex, first: Layer, last: int) -> Edge | None:
    """The edge of a cycle that leads back into its first layer in the file: it points backwards
    through the file, and removing it is the usual fix."""
    for p in first.inputs:
        for e in idx.edges_into(first.id, p.id):
            if e.from_layer == last:
                return e
    return None


@rule("G107", "duplicate-port-id", scope="graph")
def duplicate_port_id(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """Two ports of one layer share an id.

    What it checks:
    Port ids are unique across a layer's `<input>` and `<output>` ports (output ids follow the
    input ids).

    Why it matters:
    Edges and port_map entries name ports by id; a duplicate makes them ambiguous.

    Example:
    ```xml
    <input><port id="0"/></input><output><port id="0" precision="FP32"/></output>
    ```

    How to fix:
    Number output ports after the input ports.
    """
    for layer in graph.layers:
        ports = (*layer.inputs, *layer.outputs)
        if len({p.id for p in ports}) == len(ports):
            continue  # the common case, decided in C
        seen: dict[int, Port] = {}
        for p in ports:
            if p.id is None:
                continue
            if p.id in seen:
                yield Finding(
                    f"port id {p.id} is used twice in {layer.describe()}",
                    layer.port_loc(p),
                    layer=layer.path,
                    port=p.id,
                    related=(Related(layer.port_loc(seen[p.id]), "first used here"),),
                    claims=(causes.port_ids(layer),),
                )
            else:
                seen[p.id] = p


def _unsorted(ports: tuple[Port, ...]) -> Port | None:
    """The first port listed after one with a larger id (None when the ids ascend)."""
    last = None
    for p in ports:
        if p.id is None:
            continue
        if last is not None and p.id < last:
            return p
        last = p.id
    return None


def _position_mismatch(ports: tuple[Port, ...], direction: str) -> tuple[int, Port] | None:
    """Where a TensorIterator/Loop/If's ports stop meaning the same to OpenVINO and to irlint: the
    input at position i that is not port i, or the first output listed after a larger id."""
    if direction == "input":
        return next(((i, p) for i, p in enumerate(ports) if p.id is not None and p.id != i), None)
    p = _unsorted(ports)
    return None if p is None else (ports.index(p), p)


@rule("G108", "ports-out-of-id-order", severity="warning", scope="graph")
def ports_out_of_id_order(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A layer lists its input (or output) ports out of id order; its operands follow the listing.

    What it checks:
    The ports of each `<input>` and `<output>` (of layers other than TensorIterator, Loop and If,
    which G109 checks) are listed with ascending ids.

    Why it matters:
    OpenVINO takes a layer's operands in the order its ports are listed, not by id: an edge's
    `to-port` finds its port, and the port's position makes it operand 0, 1, ... A Subtract whose
    `<input>` lists port 1 before port 0 computes `port1 - port0`; OpenVINO reads and runs it that
    way without a message, and irlint reads it the same way. A reader that goes by id sees the
    opposite operation, so the file means two things.

    Example:
    ```xml
    <input><port id="1">...</port><port id="0">...</port></input>   <!-- operand 0 is port 1 -->
    ```

    How to fix:
    List the ports in id order, swapping the edges' `to-port`s if the operands are to stay as
    OpenVINO reads them now.
    """
    for layer in graph.layers:
        if layer.type in CONTROL_FLOW or layer.type in BRANCHING:
            continue
        for what, ports in (("input", layer.inputs), ("output", layer.outputs)):
            if len(ports) < 2:
                continue
            p = _unsorted(ports)
            if p is not None:
                order = ", ".join(str(q.id) for q in ports)
                role = "operand" if what == "input" else "output"
                yield Finding(
                    f"the {what} ports of {layer.describe()} are listed as {order}: OpenVINO takes {role}s "
                    f"by position, so {role} {ports.index(p)} is port {p.id}",
                    layer.port_loc(p),
                    layer=layer.path,
                    port=p.id,
                    hint="list the ports in id order (and swap the edges' ports if the order they have now is meant)",
                )


@rule("G109", "control-flow-ports-not-positions", scope="graph")
def control_flow_ports_not_positions(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A TensorIterator, Loop or If whose port ids are not their positions: OpenVINO reads another model.

    What it checks:
    The input ports of each TensorIterator, Loop and If are listed as ports 0, 1, 2, ... in this
    order, and their output ports with ascending ids (as `openvino.save_model` writes them).

    Why it matters:
    The port_map's `external_port_id` names a port by id, but OpenVINO's reader uses it as the
    position of the input, and numbers the outputs by the order of the output entries' ids. When
    ids and positions differ, OpenVINO runs another model than the port_map says, with no message:
    with the Loop's ports 2 and 3 listed as 3, 2, the initial value and the invariant input trade
    places (the model computes something else); with its output ports listed as 5, 4, the two
    outputs trade values; with a TensorIterator's inputs listed as 1, 0, the sliced input becomes
    the state and OpenVINO refuses the model ("Requested output shape [1,4] is incompatible with
    input shape"). irlint cannot run the model OpenVINO runs, so it reports an error.

    Example:
    ```xml
    <layer type="Loop" ...><input><port id="0"/><port id="1"/><port id="3"/><port id="2"/></input>
    ```

    How to fix:
    List the ports in id order and number the inputs from 0 (trip count and condition first for a
    Loop, the condition first for an If), the outputs after them.
    """
    for layer in graph.layers:
        if layer.type not in CONTROL_FLOW and layer.type not in BRANCHING:
            continue
        for what, ports in (("input", layer.inputs), ("output", layer.outputs)):
            bad = _position_mismatch(ports, what)
            if bad is None:
                continue
            pos, p = bad
            order = ", ".join(str(q.id) for q in ports)
            reading = (f"external_port_id={pos} means this port to OpenVINO (which reads the id as a position) "
                       f"and port {pos} to irlint" if what == "input" else
                       f"OpenVINO gives this port the value of the output entry with the {_ordinal(pos)} smallest "
                       f"external_port_id, irlint that of the entry naming port {p.id}")
            yield Finding(
                f"the {what} ports of {layer.describe()} are listed as {order}: port {p.id} is at position {pos}; "
                f"{reading}",
                layer.port_loc(p),
                layer=layer.path,
                port=p.id,
                hint="list the ports in id order, inputs numbered from 0, as openvino.save_model writes them",
            )


def _ordinal(n: int) -> str:
    return {0: "1st", 1: "2nd", 2: "3rd"}.get(n, f"{n + 1}th")


@rule("G111", "result-misused", scope="graph")
def result_misused(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A Result with other than one input port, or whose output feeds another layer.

    What it checks:
    Every Result has exactly one input port, and no edge starts at a Result.

    Why it matters:
    A Result is where a graph (or a body) ends; it takes one value and gives it to no layer.
    OpenVINO refuses a Result with two inputs when it reads the model ("Check 'get_input_size()
    == 1' failed ... Argument has 2 outputs (1 expected)"), and its CPU plugin refuses to compile
    a model where a Result feeds a layer ("Result node with name 'z' has incorrect number of
    output edges"). A layer retyped to Result by a hand edit leaves both behind.

    Example:
    ```xml
    <layer id="6" name="Add_11" type="Result" version="opset1">  <!-- two inputs, and Tanh reads it -->
    ```

    How to fix:
    Give the layer back its op type, or feed the Result from one producer and take the value the
    next layer needs from that producer.
    """
    idx = ctx.index(graph)
    for layer in graph.layers:
        if layer.type != "Result":
            continue
        if len(layer.inputs) != 1:
            yield Finding(
                f"{layer.describe()} has {len(layer.inputs)} input ports; a Result takes exactly one "
                f"(OpenVINO: \"Argument has {len(layer.inputs)} outputs (1 expected)\")",
                layer.loc,
                layer=layer.path,
                hint="a Result ends the graph with one value: give the layer its op type back, or keep one input",
            )
        for e in idx.users(layer) if layer.outputs else ():
            yield Finding(
                f"edge {e.from_layer}:{e.from_port} -> {e.to_layer}:{e.to_port} reads the output of "
                f"{layer.describe()}; a Result feeds no layer (OpenVINO's CPU plugin refuses it: \"Result node "
                f"... has incorrect number of output edges\")",
                e.loc,
                layer=layer.path,
                port=e.from_port,
                related=(Related(layer.loc, "the Result"),),
                hint="take the value from the layer that feeds the Result",
            )


@rule("G110", "unknown-layer-type", severity="info", scope="model")
def unknown_layer_type(ctx: Context) -> Iterator[Finding]:
    """irlint has no semantics for a layer type (reported once per type).

    What it checks:
    That every layer type/version has a shape function and kernel in irlint. A type the opset its
    `version` names does not hold (OpenVINO refuses it) is IR009, not this.

    Why it matters:
    The model may be perfectly valid; irlint simply cannot infer shapes past such layers nor run
    them, so checks downstream of them are weaker. It is never an error.

    Example:
    ```xml
    <layer id="4" name="erfinv" type="ErfInv" version="opset17">
    ```

    How to fix:
    Nothing to fix in the model. Contributions of op modules under `irlint/ops/` are welcome.
    """
    seen: dict[tuple[str, str], Layer] = {}
    count: dict[tuple[str, str], int] = {}
    unknown: dict[tuple[str, str], bool] = {}  # asked once per type and version, not per layer
    for _g, layer in ctx.model.layers():
        key = (layer.type, layer.version)
        found = unknown.get(key)
        if found is None:
            # no type, no opset, not in the opset: IR006/IR007/IR009 report the layer
            found = unknown[key] = bool(
                layer.type
                and layer.type not in STRUCTURAL_TYPES
                and opset_holds(layer.type, layer.version)
                and lookup(layer.type, layer.version) is None
            )
        if found:
            seen.setdefault(key, layer)
            count[key] = count.get(key, 0) + 1
    for key, layer in seen.items():
        n = count[key]
        yield Finding(
            f"layer type {layer.type} ({layer.version or 'no version'}) is unknown to irlint; "
            f"its {n} layer{'s' if n > 1 else ''} get no shape inference and cannot be run",
            layer.loc,
            layer=layer.path,
        )
