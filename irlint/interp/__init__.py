"""The numpy reference interpreter: compiled programs driven by `run` (no events; a `Listener` such as
a trace is called where it listens) or by `execute` (the event generator the stepper, the debugger
and the CLI consume)."""

from irlint.interp.errors import DepartureWarning, ExecutionError
from irlint.interp.executor import Listener, Options, execute
from irlint.interp.run import run
from irlint.interp.state import State

__all__ = ["DepartureWarning", "ExecutionError", "Listener", "Options", "State", "execute", "run"]
