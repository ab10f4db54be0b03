"""The rule engine: discovery of rule packs, selection, the per-model context, the runner."""
