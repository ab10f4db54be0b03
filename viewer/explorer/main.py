"""The Model Explorer adapter for OpenVINO IR (`model-explorer --extensions=irlint.viewer.explorer`).

Model Explorer imports this module and registers every `Adapter` subclass in it. The adapter reads
the .xml (and the .bin beside it), lints it, and returns the graphs of viewer.explorer.convert.
What `irlint explore` adds (a trace and its iteration, another .bin) arrives in `OPTIONS`, or from
the environment variables IRLINT_EXPLORE_TRACE / IRLINT_EXPLORE_ITERATION / IRLINT_EXPLORE_WEIGHTS
when Model Explorer is started by its own command.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from irlint.viewer.explorer.convert import Trace, convert
from model_explorer import Adapter, AdapterMetadata, ModelExplorerGraphs


@dataclass
class Options:
    weights: str | None = None
    trace: Trace | None = None


OPTIONS = Options()


def options_from_environment() -> Options:
    """IRLINT_EXPLORE_* variables: a trace (with its iteration, default 0) and a .bin path."""
    weights = os.environ.get("IRLINT_EXPLORE_WEIGHTS") or None
    path = os.environ.get("IRLINT_EXPLORE_TRACE")
    if not path:
        return Options(weights)
    from irlint.viewer.tracecheck import parse_iteration

    from irlint.cli.arrays import load_npz
    from irlint.interp.trace import trace_arrays

    values, _stats = trace_arrays(load_npz(path, "IRLINT_EXPLORE_TRACE", 4 * 1024**3))
    iteration = parse_iteration(os.environ.get("IRLINT_EXPLORE_ITERATION", "0"))
    return Options(weights, Trace.from_arrays(values, iteration))


class OpenVinoIrAdapter(Adapter):
    """OpenVINO IR .xml -> Model Explorer graphs, with irlint's findings on the nodes."""

    metadata = AdapterMetadata(
        id="irlint_openvino_ir",
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

        opts = OPTIONS if OPTIONS.weights or OPTIONS.trace else options_from_environment()
        model = load(model_path, opts.weights)
        diagnostics = check_model(model)
        return {"graphs": convert(model, diagnostics, opts.trace)}
