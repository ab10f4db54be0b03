"""Index-driven ops: GatherElements, GatherND, Scatter*, OneHot, NonZero, TopK."""
