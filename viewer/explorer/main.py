"""The Model Explorer extension for OpenVINO IR (`model-explorer --extensions=irlint.viewer.explorer`).

Model Explorer imports this module and registers every `Adapter` and `NodeDataProvider` subclass in
it. The adapter reads the .xml (and the .bin beside it), lints it, and returns the graphs of
viewer.explorer.convert. The node data provider colours the graph on screen by the trace's values
at any iteration the user types (the runs `irlint explore` loads are a sample of a long trace).
What `irlint explore` adds (a trace and its iteration, another .bin) arrives in `OPTIONS`, or from
the environment variables IRLINT_EXPLORE_TRACE / IRLINT_EXPLORE_ITERATION / IRLINT_EXPLORE_WEIGHTS
when Model Explorer is started by its own command.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any

from irlint.viewer.explorer.convert import Trace, convert, trace_node_data
from model_explorer import Adapter, AdapterMetadata, ModelExplorerGraphs
from model_explorer.config_editor import TextInputConfigEditor
from model_explorer.graph_builder import Graph
from model_explorer.node_data_provider import (
    GetConfigEditorsResult,
    NodeDataProvider,
    NodeDataProviderFilter,
    NodeDataProviderMetadata,
    NodeDataProviderResult,
)

ADAPTER_ID = "irlint_openvino_ir"
PROVIDER_ID = "irlint_trace_iteration"


@dataclass
class Options:
    weights: str | None = None
    trace: Trace | None = None


OPTIONS = Options()


def current_options() -> Options:
    """What `irlint explore` set, else what the environment says."""
    return OPTIONS if OPTIONS.weights or OPTIONS.trace else options_from_environment()


def options_from_environment() -> Options:
    """IRLINT_EXPLORE_* variables: a trace (with its iteration, default 0) and a .bin path. The trace
    is read once (the adapter and the node data provider ask on every command) until its file changes."""
    path = os.environ.get("IRLINT_EXPLORE_TRACE") or None
    stamp = os.stat(path).st_mtime_ns if path and os.path.exists(path) else None
    return _environment_options(os.environ.get("IRLINT_EXPLORE_WEIGHTS") or None, path,
                                os.environ.get("IRLINT_EXPLORE_ITERATION", "0"), stamp)


@functools.lru_cache(maxsize=1)
def _environment_options(weights: str | None, path: str | None, iteration: str, _stamp: int | None) -> Options:
    if not path:
        return Options(weights)
    from irlint.viewer.diagram.tracecheck import parse_iteration

    from irlint.cli.arrays import load_npz
    from irlint.interp.trace import trace_arrays

    values, _stats = trace_arrays(load_npz(path, "IRLINT_EXPLORE_TRACE", 4 * 1024**3))
    return Options(weights, Trace.from_arrays(values, parse_iteration(iteration)))


class OpenVinoIrAdapter(Adapter):
    """OpenVINO IR .xml -> Model Explorer graphs, with irlint's findings on the nodes."""

    metadata = AdapterMetadata(
        id=ADAPTER_ID,
        name="OpenVINO IR (irlint)",
        description="OpenVINO IR .xml/.bin with TensorIterator/Loop/If bodies as subgraphs and irlint's findings",
        source_repo="",
        fileExts=["xml"],
    )

    def __init__(self) -> None:
        super().__init__()

    def convert(self, model_path: str, settings: dict[str, Any]) -> ModelExplorerGraphs:
        from irlint.api import check_model
        from irlint.ir.loader import load

        opts = current_options()
        model = load(model_path, opts.weights)
        diagnostics = check_model(model)
        return {"graphs": convert(model, diagnostics, opts.trace)}


class TraceIterationProvider(NodeDataProvider):
    """The trace's values at an iteration the user types, as node data of the graph on screen."""

    metadata = NodeDataProviderMetadata(
        id=PROVIDER_ID,
        name="irlint: trace values at an iteration",
        description="Colours the graph on screen by each layer's largest |value| at the iteration you type",
        source_repo="",
        icon="timeline",
        filter=NodeDataProviderFilter(adapterIds=[ADAPTER_ID]),
    )

    def __init__(self) -> None:
        super().__init__()

    def get_config_editors(self, provider_id: str) -> GetConfigEditorsResult:
        trace = current_options().trace
        if trace is None:
            return GetConfigEditorsResult(error=NO_TRACE)
        labels = [it.label for it in trace.iterations()]
        span = f"{labels[0]} to {labels[-1]}, {len(labels)} in all" if labels else "none"
        return GetConfigEditorsResult(configEditors=[TextInputConfigEditor(
            id="iteration", label="Iteration (K or K.M, 0-based, outer loop first)", required=True,
            description=f"recorded: {span}", defaultValue=".".join(map(str, trace.iteration)))])

    def run(self, provider_id: str, model_path: str, graph_id: str, config_values: dict,
            graph: Graph | None) -> NodeDataProviderResult:
        from irlint.viewer.diagram.tracecheck import TraceMismatch, parse_iteration

        from irlint.ir.loader import load

        opts = current_options()
        if opts.trace is None:
            return NodeDataProviderResult(error=NO_TRACE)
        text = str(config_values.get("iteration", "")).strip()
        try:
            parse_iteration(text)
        except TraceMismatch as e:
            return NodeDataProviderResult(error=str(e))
        at = iteration_of(opts.trace, text)
        if at is None:
            return NodeDataProviderResult(error=f"iteration {text}: the trace does not record it")
        model = load(model_path, opts.weights)
        data = trace_node_data(convert(model), model, at, f"iteration {text} (typed)", only=graph_id)
        if graph_id not in data.graphsData:
            return NodeDataProviderResult(error=f"graph {graph_id!r} is not one of {model.path}")
        return NodeDataProviderResult(result=data.graphsData[graph_id])


NO_TRACE = "no trace: start `irlint explore MODEL.xml --trace T.npz` (or set IRLINT_EXPLORE_TRACE)"


def iteration_of(trace: Trace, text: str) -> Trace | None:
    """The trace at the iteration `text` names: a recorded one, or outer loops only (`2`: the inner
    loops' last iteration within outer iteration 2), as `--iteration` takes it."""
    for it in trace.iterations():
        if it.label == text:
            return Trace(trace.values, it.key)
        if it.label.startswith(text + "."):
            return Trace(trace.values, tuple(int(p) for p in text.split(".")))
    return None
