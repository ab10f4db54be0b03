"""What TensorIterator-1 and Loop-5 mean, written once.

Every consumer — shape inference, the interpreter, `compare`, the diagram and the PM/BE/SL/LP
rules — asks this package instead of reading `port_map`/`back_edges` on its own:

- `readings`: the slicing arithmetic of one port_map entry, in the spec/core-shape-inference
  reading that irlint follows, the core reference's reading, and the CPU plugin's reading.
- `plan`: `LoopPlan`, each entry of one layer classified (sliced, merged, invariant input;
  concatenated, last-value output; Loop special ports) with its back edge.
- `outputs`: which output port each `<output>` entry gives (a TI/Loop or an If branch), by its id
  or, where an id names no output port, by the order of the ids as OpenVINO's reader maps them.
- `bound`: how many iterations run — one function for the static view (shape inference, rules) and
  the concrete one (the interpreter).
- `values`: the Loop's scalar ports read the same way statically and concretely.
- `assembly`: how outputs are put together after the last iteration (concatenation order, the
  zero-iteration values) and which iteration produced a given element of an output.
"""

from irlint.controlflow.assembly import (
    concat_order,
    iteration_of_output_element,
    never_run_shape,
    zero_iteration_source,
)
from irlint.controlflow.bound import IterationBound, iteration_bound, refine_with_body_condition
from irlint.controlflow.plan import CONTROL_FLOW, EntryKind, LoopPlan, PlanEntry, loop_plan
from irlint.controlflow.readings import (
    SliceError,
    SliceSpec,
    core_reference_plan,
    cpu_differs,
    cpu_plugin_iterations,
    cpu_plugin_loop_plan,
    cpu_plugin_plan,
    length_read_otherwise,
    resolve,
    resolve_entry,
    resolve_loop,
    spec_plan,
    sub_range,
    unread,
)
from irlint.controlflow.values import iteration_value, iteration_values, scalar_flag, scalar_value

__all__ = [
    "CONTROL_FLOW",
    "EntryKind",
    "IterationBound",
    "LoopPlan",
    "PlanEntry",
    "SliceError",
    "SliceSpec",
    "concat_order",
    "core_reference_plan",
    "cpu_differs",
    "cpu_plugin_iterations",
    "cpu_plugin_loop_plan",
    "cpu_plugin_plan",
    "iteration_bound",
    "iteration_of_output_element",
    "iteration_value",
    "iteration_values",
    "length_read_otherwise",
    "loop_plan",
    "never_run_shape",
    "refine_with_body_condition",
    "resolve",
    "resolve_entry",
    "resolve_loop",
    "scalar_flag",
    "scalar_value",
    "spec_plan",
    "sub_range",
    "unread",
    "zero_iteration_source",
]
