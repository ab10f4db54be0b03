"""The diagram of an IR model that `irlint render` draws, its HTML page, and what the viewers share.

One model of what to show serves the three viewers: `describe` (labels, slicing and port roles in
words), `porttypes` (element types and shapes), `buffers` (state carried on back edges), `names`
(short names), `scopes` (name-scope grouping) and `tracecheck` (trace keys and iterations) are used by
the graphviz diagram, the HTML page (`html`) and the Model Explorer adapter (`viewer/explorer`).

The graphviz diagram is built in layers, each module depending only on the ones before it:
`context` (options, shared drawing state, node ids) -> `describe`, `values` (traced values on edges),
`findings` -> `layout` (choices made before drawing: scope nodes, folded constants, port tables,
back-edge order) -> `edges` -> `nodes` -> `build` (`build_diagram`). `dot` writes every model string
into DOT as data; `style` holds the colours and shapes.
"""

from irlint.viewer.diagram.build import build_diagram
from irlint.viewer.diagram.context import AUTO_COLLAPSE, DiagramOptions, node_id
from irlint.viewer.diagram.describe import slicing_label

__all__ = ["AUTO_COLLAPSE", "DiagramOptions", "build_diagram", "node_id", "slicing_label"]
