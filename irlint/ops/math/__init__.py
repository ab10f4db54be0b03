"""Element-wise arithmetic, comparisons, logic, activations, reductions, Softmax, Convert."""
