"""A CLI command: a name, its arguments and a function returning the exit code.

Built-in commands live in this package; other packages (the viewer) add theirs through the entry
point group `irlint.commands`, each entry naming a `Command`, so the core never imports them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_FAILURE = 2


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """Bad command-line usage or configuration: message on stderr, exit 2."""
