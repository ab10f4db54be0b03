"""Data-movement and shape ops: reshaping, slicing, gathering, broadcasting, shape computations."""
