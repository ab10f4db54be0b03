"""The built-in rule pack, installed as `irlint.rules` and registered through the `irlint.rules` entry point.

One module per family (graph, weights, declarations, port_map, back_edges, slicing, loop ...); the
engine walks the package and collects every `Rule` it finds.
"""
