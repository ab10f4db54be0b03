"""The debugger's keys, one table for the `?` help and `irlint debug --help` (no Textual import here:
`--help` stays fast and works where the UI cannot start)."""

from __future__ import annotations

KEYS = [
    ("s", "step: the next event"),
    ("n", "step over: the next layer at this depth (a TI/Loop runs to its end)"),
    ("i", "step into: enter the body of the TI/Loop"),
    ("o", "step out: finish the body being run"),
    ("t", "next iteration of the innermost loop"),
    ("c", "continue to a breakpoint or the end (progress in the status line)"),
    ("S", "step back: the event before (the mirror of s); inspector, watches and status show it as they did "
          "going forward (the run restarts and stops there when its tensors were dropped from memory)"),
    ("N", "step back over: the layer evaluated before at this depth (the mirror of n: a TI/Loop/If as a whole)"),
    (":", "expression console: numpy expressions over the stop's tensors (x, outputs, value('LAYER', 'out6'), "
          "x.max(), x[0, :4], a @ b); Up/Down history, Esc closes"),
    ("V", "variables: every tensor of the scope at the paused iteration (name, port, type, range, NaN, Inf, "
          "changed since the previous iteration); type to filter, Tab sorts, Enter inspects"),
    ("u / d", "scope up / down across the nesting (Loop in TI in If), each level at its iteration; tree, "
              "inspector and V follow"),
    ("/", "search layers by name, type or id path; then n / N: next / previous hit, Esc ends the search"),
    ("=", "set value (what-if) of the paused layer's output: clip(x, -1, 1), x[0, :2] = 0.5, load('h.npy'); "
          "the run goes on with it (ALTERED); going back past it or R drops it"),
    ("Esc", "stop a running continue / go to (and drop keys typed meanwhile); end a search"),
    ("g", "go to iteration N (N.M in nested loops, 0-based) of the selected layer: shown if recorded, "
          "else run to it (back: the run restarts)"),
    ("b", "toggle a breakpoint on the selected layer (● in the tree)"),
    ("B", "breakpoint with a condition: layer 12 when iteration == 10, when max(abs(x)) > 1e3, "
          "when x.sum() > 0, when any(isnan(x)); `nonfinite 1e6`: stop at NaN/Inf or |value| > 1e6; "
          "`... log EXPR`: a logpoint, printed at each hit (log pane, --logpoints FILE) without stopping; "
          "`... hit N`: stop at the Nth hit"),
    ("x", "the breakpoints list: space enables/disables, d deletes, e edits the layer and condition"),
    ("!", "stop at the first NaN/Inf any layer makes, in any iteration (toggle)"),
    ("[ / ]", "previous / next recorded iteration of the selected layer"),
    ("m", "timeline statistic: max, min, mean, norm (click a bar to jump)"),
    ("p", "next output port of a multi-output layer (LSTMCell H/C, TI/Loop outputs)"),
    ("j / k", "previous / next slice of a tensor above 2-D"),
    ("w", "watch: pin the inspected output (any layer, any depth) or unpin it; shown at every stop"),
    ("W", "clear the watch list"),
    ("e", "save the inspected tensor as .npy (asks for the file; never over a file the run reads)"),
    ("y", "copy the inspected tensor as text: np.array([...], dtype=np.float32), every element (OSC 52 "
          "clipboard)"),
    ("v", "the selected layer's element in the XML (its line highlighted; Esc closes)"),
    ("l", "the whole event log over the full screen (the log pane wraps and scrolls too)"),
    ("< / >", "narrow / widen the tree pane (layer types show from 44 columns)"),
    ("R", "restart the run (breakpoints kept)"),
    ("r", "render the diagram with the values recorded so far, at the paused iteration, to MODEL.debug.svg"),
    ("?", "this help"),
    ("q", "quit (stops a running continue first)"),
]


def keys_text(width: int = 78) -> str:
    """The key table as plain text for `--help`."""
    import textwrap

    key_w = max(len(k) for k, _ in KEYS) + 2
    lines = ["keys:"]
    for k, text in KEYS:
        wrapped = textwrap.wrap(text, width - key_w - 2) or [""]
        lines.append(f"  {k:<{key_w}}{wrapped[0]}")
        lines.extend(" " * (key_w + 2) + w for w in wrapped[1:])
    return "\n".join(lines)
