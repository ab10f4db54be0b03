"""Finding rule packs: the entry-point group `irlint.rules`, plus folders given with `--rules DIR`.

The built-in pack registers itself through the same entry point a user's pack would, so the core
never imports it by name. A pack is a module (or package) whose globals hold `Rule` objects, or that
exposes `RULES`; for a package, its submodules are walked too.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Iterable
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from irlint.ir.codes import LOADER_RULES
from irlint.rule import Rule, rules_in

ENTRY_POINT_GROUP = "irlint.rules"


class PackError(Exception):
    """A rule pack could not be loaded (exit code 2 with a message)."""


def _rules_of_module(mod: ModuleType) -> list[Rule]:
    found = list(getattr(mod, "RULES", ())) or rules_in(vars(mod))
    if hasattr(mod, "__path__"):
        for info in pkgutil.walk_packages(mod.__path__, prefix=mod.__name__ + "."):
            sub = importlib.import_module(info.name)
            found += rules_in(vars(sub))
    return found


def entry_point_rules() -> list[Rule]:
    """Rules of the installed packs; looked up once per process (scanning entry points costs ~20 ms a file)."""
    return list(_entry_point_rules())


@functools.cache
def _entry_point_rules() -> tuple[Rule, ...]:
    rules: list[Rule] = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as e:  # a broken third-party pack must not kill the run
            raise PackError(f"rule pack '{ep.name}' ({ep.value}) failed to import: {e}") from e
        rules += _rules_of_module(obj) if isinstance(obj, ModuleType) else list(obj)
    return tuple(rules)


def folder_rules(folder: str | Path) -> list[Rule]:
    """Load every `*.py` in a folder as a private module and collect its rules."""
    path = Path(folder)
    if not path.is_dir():
        raise PackError(f"--rules {folder}: not a directory")
    rules: list[Rule] = []
    for file in sorted(path.glob("*.py")):
        name = f"irlint_user_rules_{abs(hash(str(file.resolve())))}_{file.stem}"
        spec = importlib.util.spec_from_file_location(name, file)
        if spec is None or spec.loader is None:
            continue
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except Exception as e:
            raise PackError(f"--rules {file}: failed to import: {type(e).__name__}: {e}") from e
        rules += rules_in(vars(mod))
    return rules


def all_rules(extra_folders: Iterable[str | Path] = ()) -> list[Rule]:
    """Loader rules, entry-point packs and folder packs; duplicate codes are a pack error."""
    rules = list(LOADER_RULES) + entry_point_rules()
    for folder in extra_folders:
        rules += folder_rules(folder)
    seen: dict[str, Rule] = {}
    for r in rules:
        if r.code in seen and seen[r.code] is not r:
            raise PackError(f"rule code {r.code} is defined twice ({seen[r.code].pack} and {r.pack})")
        seen[r.code] = r
    return sorted(seen.values(), key=lambda r: r.code)
