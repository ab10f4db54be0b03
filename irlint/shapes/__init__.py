"""Element types and partial shapes through every graph level, with small constant folding.

`infer_model(model) -> ShapeResult`: for each output port (keyed by layer id path and port id) a
`TensorInfo` (element type, partial shape, value when it is a small constant); for each
TensorIterator/Loop a `LoopInfo` (iteration count and how it was derived, resolved slicing per
port_map entry); and the `ShapeProblem`s met on the way (ops that reject their inputs).
`inferred(model)` is the same pass made once per Model object, shared by the rules and the
interpreter. Op knowledge comes from the op registry (`irlint.ops`), the same one the interpreter uses.
"""

from irlint.shapes.infer import infer_model, inferred
from irlint.shapes.result import UNKNOWN, EntrySlicing, LoopInfo, Poison, ShapeProblem, ShapeResult

__all__ = ["UNKNOWN", "EntrySlicing", "LoopInfo", "Poison", "ShapeProblem", "ShapeResult", "infer_model", "inferred"]
