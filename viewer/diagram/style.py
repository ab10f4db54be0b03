"""Colours and shapes of the diagrams (one place to change the look)."""

from __future__ import annotations

# remincross off: dot's last crossing-minimisation pass over the whole graph forgets the order held inside a
# cluster (a body's states, `layout.state_order`), and put a back edge's Result inside the others
GRAPH = {"fontname": "Helvetica", "fontsize": "11", "nodesep": "0.12", "ranksep": "0.35", "labelloc": "t",
         "remincross": "false"}
NODE = {"shape": "box", "style": "rounded,filled", "fillcolor": "#f5f5f5", "fontname": "Helvetica",
        "fontsize": "9", "margin": "0.08,0.03", "height": "0.3"}
EDGE = {"fontname": "Helvetica", "fontsize": "8", "arrowsize": "0.6", "color": "#555555"}
SCOPE = {"style": "rounded,dotted", "color": "#888888", "fontname": "Helvetica", "fontsize": "9",
         "fontcolor": "#555555"}
COLLAPSED_SCOPE = {"shape": "folder", "style": "filled", "fillcolor": "#eeeeee", "color": "#888888"}
CLUSTER = {"style": "rounded,dashed", "color": "#4c72b0", "fontname": "Helvetica-Bold", "fontsize": "10"}

BY_TYPE = {
    "Parameter": {"shape": "invhouse", "fillcolor": "#dbe9f6"},
    "Result": {"shape": "house", "fillcolor": "#e2f0d9"},
    "Const": {"shape": "box", "style": "rounded,filled", "fillcolor": "#ffffff", "color": "#bbbbbb",
              "fontcolor": "#666666"},
    "TensorIterator": {"shape": "box3d", "fillcolor": "#fff2cc"},
    "Loop": {"shape": "box3d", "fillcolor": "#fff2cc"},
}
SPECIAL = {"penwidth": "2", "color": "#9467bd"}
TAKEN_BRANCH = {"style": "rounded,bold", "color": "#2ca02c", "penwidth": "2.5"}
SPECIAL_PORT = {"shape": "cds", "fillcolor": "#eadcf8", "color": "#9467bd"}
PORT_MAP = {"color": "#4c72b0", "fontcolor": "#4c72b0", "penwidth": "1.3"}
# Back edges have their own colour: red is kept for errors (a bad back edge must look different).
BACK_EDGE = {"color": "#00838f", "fontcolor": "#00838f", "style": "dashed", "penwidth": "1.5"}
# A buffer carried on a back edge and written with a Scatter (viewer.diagram.buffers): the back edge drawn thick,
# the Parameter holding it filled light teal.
BUFFER_EDGE = {"penwidth": "3", "arrowtail": "box"}
BUFFER = {"fillcolor": "#cdeef0", "color": "#00838f"}
GHOST = {"shape": "box", "style": "dashed,rounded", "color": "#999999", "fontcolor": "#777777",
         "fillcolor": "#ffffff"}
PORT_LABEL = {"labelfontsize": "7", "labelfontcolor": "#888888"}
LEGEND = {"shape": "box", "style": "filled", "fillcolor": "#ffffff", "color": "#bbbbbb", "fontname": "Courier",
          "fontsize": "9", "nojustify": "true"}
SEVERITY = {
    "error": {"fillcolor": "#f4cccc", "color": "#cc0000", "penwidth": "2"},
    "warning": {"fillcolor": "#fce5cd", "color": "#e69138", "penwidth": "2"},
    "info": {"fillcolor": "#cfe2f3", "color": "#3d85c6"},
}
