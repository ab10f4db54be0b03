"""The numpy reference interpreter: one event generator (`execute`) that `run`, `trace` and the debugger consume."""

from irlint.interp.errors import ExecutionError
from irlint.interp.executor import Options, execute
from irlint.interp.run import run

__all__ = ["ExecutionError", "Options", "execute", "run"]
