"""Viewer: graphviz rendering and the Textual step debugger (installed as irlint.viewer)."""
