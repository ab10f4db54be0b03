"""What OpenVINO's CPU plugin does with a loop body's memory, modelled once.

The plugin runs a TensorIterator/Loop body as a graph of nodes over shared memory: views share their
input's memory, an Eltwise node may write its result over its input 0's, a body Result's value stays
where it was computed, and the loop node copies slices, back-edge values and outputs between those
memories in a fixed order. Where the spec gives a body value that the plugin has already written over
when it reads it, the plugin departs from the spec. `memory.overwrites` answers that one question for
a loop; the BE507, BE508 and PM414 rules are its readers (docs/architecture.md, "irlint/openvino").

Modules: `facts` (what the analysis reads of the model: shapes, edges, the plugin's execution order),
`nodes` (which IR ops the plugin runs as which nodes), `inplace` (which op writes over which body
Parameter's memory), `memory` (the copy order of the loop node and the question).

Each decision cites the OpenVINO source it models (src/plugins/intel_cpu/src/...); a condition that
was measured on the plugin rather than read in its source says so.
"""
