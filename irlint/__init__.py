"""irlint: validator, reference interpreter and step debugger for OpenVINO IR recurrence."""

__version__ = "0.1.0"
