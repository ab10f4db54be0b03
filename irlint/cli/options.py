"""Rule selection and configuration options shared by `check`, `run`, `trace` and the viewer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from irlint.cli.command import UsageError
from irlint.cli.printing import safe
from irlint.settings.config import Config, ConfigError, load_config, trusted_for_code


def add_selection_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--select", action="append", metavar="CODES",
                   help="only these rule codes or prefixes (comma-separated, repeatable; ALL = every rule)")
    p.add_argument("--extend-select", action="append", default=[], metavar="CODES",
                   help="add codes or prefixes to the selection")
    p.add_argument("--ignore", action="append", default=[], metavar="CODES",
                   help="skip these codes or prefixes")
    p.add_argument("--rules", action="append", default=[], metavar="DIR",
                   help="also load the rule pack in DIR (repeatable)")
    p.add_argument("--config", metavar="FILE", help="configuration file (default: nearest pyproject.toml "
                   "with [tool.irlint])")


def resolve_selection(args: argparse.Namespace) -> tuple[dict[str, Any], Config]:
    """Merge command-line options over the config file; returns kwargs for `irlint.api.check`."""
    start = Path(args.files[0]) if getattr(args, "files", None) else Path(getattr(args, "model", "."))
    try:
        config = load_config(args.config, start if start.exists() else Path.cwd())
    except ConfigError as e:
        raise UsageError(str(e)) from e
    base = config.path.parent if config.path else Path.cwd()
    select = args.select or config.get("select")
    extend = list(config.get("extend-select", [])) + list(args.extend_select)
    ignore = list(config.get("ignore", [])) + list(args.ignore)
    packs = [str(base / d) for d in config.get("rules", [])]
    if packs and not trusted_for_code(config, bool(args.config), Path.cwd()):
        print(safe(f"irlint: warning: not loading the rule packs {config.get('rules')} of {config.path}: rule packs "
                   "load only from --rules, --config or the configuration of the current directory "
                   "(docs/security.md)"), file=sys.stderr)
        packs = []
    rule_dirs = packs + list(args.rules)
    return (
        {"select": select, "extend_select": extend, "ignore": ignore, "rule_dirs": rule_dirs},
        config,
    )
