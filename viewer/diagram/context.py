"""What a diagram is drawn from: the options, the state shared while drawing, and node ids."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from irlint.viewer.diagram.buffers import CarriedBuffer
from irlint.viewer.diagram.porttypes import PortTypes

from irlint.diagnostics import Diagnostic
from irlint.ir.model import Layer, Model

NAME_LIMIT, EDGE_NAME_LIMIT = 40, 24  # characters of a layer name in a node label / an edge label
AUTO_COLLAPSE = 1500  # body layers in all above which bodies are drawn collapsed (dot fails at ~3,000)
LEGEND_MAX = 60  # findings listed in the legend
PORT_TABLE_AT = 4  # body Parameters (or Results) from which they are drawn as one port table


@dataclass
class DiagramOptions:
    depth: int | None = None  # nesting levels to expand (None: all)
    collapse: bool = False  # draw every TI/Loop as a single node
    rankdir: str = "TB"
    diagnostics: Sequence[Diagnostic] = ()  # --lint
    trace: Mapping[str, np.ndarray] | None = None  # --trace values by key
    iteration: tuple[int, ...] | int | None = None  # outer first, 0-based; inner loops not given: their last
    auto_collapse: int | None = AUTO_COLLAPSE  # None: never collapse automatically
    expand: Sequence[str] = ()  # name scopes drawn as clusters ("all": every one); others are one node
    scope_depth: int | None = None  # name scopes opened down to this nesting level (None: the automatic rule)
    focus: str | None = None  # a layer's name or id path: draw it and its neighbourhood only (viewer.diagram.focus)
    focus_radius: int = 2  # edges from the focus (or the TI/Loop/If holding it) that are drawn
    share_bodies: bool = True  # TI/Loop with the same body as an earlier one: one node naming it (viewer.diagram.twins)
    list_weights: bool = True  # Consts feeding only a layer fed by 3 or more listed in its node (layout.fold_weights)


@dataclass
class Ctx:
    opts: DiagramOptions
    model: Model
    collapse: bool = False
    by_layer: dict[str, list[Diagnostic]] = field(default_factory=dict)
    claims: dict[int, list[Diagnostic]] = field(default_factory=dict)  # id(edge/entry/back edge) -> findings
    number: dict[int, int] = field(default_factory=dict)  # id(diagnostic) -> legend number
    ghosts: int = 0
    entry_ghost: dict[int, str] = field(default_factory=dict)  # id(port_map entry) -> its ghost body node
    notes: list[str] = field(default_factory=list)
    trace: dict[str, dict[tuple[int, ...], dict[str, np.ndarray]]] = field(default_factory=dict)
    loops: dict[str, object] = field(default_factory=dict)  # loop path -> LoopInfo (static inference)
    short: dict[str, str] = field(default_factory=dict)  # layer name -> node label (viewer.diagram.names)
    port_types: PortTypes | None = None  # made once shape inference has run (or not)
    short_edge: dict[str, str] = field(default_factory=dict)  # layer name -> its name in edge labels
    hidden_in: dict[str, str] = field(default_factory=dict)  # layer path -> node of its collapsed scope
    scope_edges: set[tuple[str, str]] = field(default_factory=set)  # edges drawn to/from collapsed scopes
    scopes: int = 0  # scope clusters and nodes drawn so far (their DOT names)
    rows: dict[str, str] = field(default_factory=dict)  # layer path -> "table:port" of its port-table row
    inferred: Mapping[object, object] = field(default_factory=dict)  # shape inference's tensors by port_key
    in_scope_cluster: set[str] = field(default_factory=set)  # layers drawn inside an expanded scope's cluster
    cluster_scope: dict[str, str] = field(default_factory=dict)  # layer path -> innermost drawn scope cluster's path
    outer_cluster: dict[str, tuple[str, str]] = field(default_factory=dict)  # layer path -> (scope path, DOT name)
    # of the scope cluster holding it that is drawn directly in its graph (a body's cluster)
    folded: dict[str, str] = field(default_factory=dict)  # Const path -> its text in the row or port it feeds
    const_scopes: set[str] = field(default_factory=set)  # collapsed scope nodes that hide only Consts
    buffers: dict[str, dict[int, CarriedBuffer]] = field(default_factory=dict)  # loop path -> Parameter id -> buffer
    twin: dict[str, Layer] = field(default_factory=dict)  # TI/Loop path -> the one whose same body is drawn
    twin_inputs: dict[str, int] = field(default_factory=dict)  # its node -> how many layers hidden in it
    focus: Layer | None = None  # --focus, found
    focus_chain: set[str] | None = None  # id paths of the focus and the TI/Loop/If holding it (the only expanded)
    focus_rest: dict[str, int] = field(default_factory=dict)  # node standing for layers outside the focus -> count
    drawn: dict[str, str] = field(default_factory=dict)  # layer path -> its node's or cluster's DOT name
    weights: dict[str, list[tuple[int | None, Layer]]] = field(default_factory=dict)  # layer path -> Consts listed


def node_id(layer: Layer) -> str:
    return "L_" + layer.path.replace("/", "_")


def finding_tags(ctx: Ctx, found: list[Diagnostic]) -> str:
    return " ".join(f"[{ctx.number[id(d)]}] {d.code}" for d in found if id(d) in ctx.number)


def is_expanded(layer: Layer, level: int, ctx: Ctx) -> bool:
    o = ctx.opts
    return ((layer.body is not None or bool(layer.branches)) and not o.collapse and not ctx.collapse
            and (o.depth is None or level < o.depth) and layer.path not in ctx.twin
            and (ctx.focus_chain is None or layer.path in ctx.focus_chain))


def join_inline(*parts: str) -> str:
    return "  ".join(x for x in parts if x)


def join_lines(*parts: str) -> str:
    return "\n".join(x for x in parts if x)
