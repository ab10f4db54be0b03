"""The IR layer: safe XML loading into the typed, read-only model."""

from irlint.ir.loader import LoadError, load
from irlint.ir.model import BackEdge, Edge, Graph, Layer, Model, Port, PortMapEntry

__all__ = ["BackEdge", "Edge", "Graph", "Layer", "LoadError", "Model", "Port", "PortMapEntry", "load"]
