"""`python -m irlint` is the `irlint` command."""

from irlint.cli.main import entry

entry()
