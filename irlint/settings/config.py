"""`[tool.irlint]` in the nearest pyproject.toml (or `--config FILE`): defaults for the CLI options."""

from __future__ import annotations

import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

KEYS = {
    "select": list,
    "extend-select": list,
    "ignore": list,
    "rules": list,
    "format": str,
    "exit-zero": bool,
    "max-iterations": int,
    "memory-budget": str,
    "per-file-ignores": dict,
}


class ConfigError(Exception):
    """The configuration file exists but is invalid (exit code 2)."""


@dataclass(frozen=True)
class Config:
    path: Path | None = None
    values: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


MAX_CONFIG_BYTES = 4 * 1024**2  # a configuration is a few hundred bytes; `--config /dev/zero` is not one


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.irlint] table."""
    d = start.resolve()
    if d.is_file():
        d = d.parent
    for folder in (d, *d.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():  # a regular file (a FIFO would block the read)
            try:
                if candidate.stat().st_size > MAX_CONFIG_BYTES:  # not read into memory: not irlint's
                    continue
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            if "irlint" in data.get("tool", {}):
                return candidate
    return None


def _check_file(path: Path) -> None:
    """Refuse a FIFO or device (reading it would block or never end) and an oversized file, before reading."""
    st = path.stat()
    if not stat.S_ISREG(st.st_mode):
        raise ConfigError(f"config {path} is not a regular file (a directory, FIFO or device)")
    if st.st_size > MAX_CONFIG_BYTES:
        raise ConfigError(f"config {path} is {st.st_size} bytes, more than the {MAX_CONFIG_BYTES} irlint reads")


def trusted_for_code(config: Config, explicit: bool, cwd: Path) -> bool:
    """Whether `config` may load rule packs (Python code): only an explicit `--config` or the
    configuration of the directory irlint was started in, never one found beside a checked file
    elsewhere (a model's folder must not make irlint import what it ships; docs/security.md)."""
    if config.path is None or explicit:
        return True
    own = find_pyproject(cwd)
    return own is not None and own.resolve() == config.path.resolve()


def load_config(explicit: str | None, start: Path) -> Config:
    """Read `--config FILE` (a pyproject.toml or a bare irlint.toml) or discover one from `start`."""
    path = Path(explicit) if explicit else find_pyproject(start)
    if path is None:
        return Config()
    try:
        _check_file(path)
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read config {path}: {e}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"invalid TOML in {path}: {e}") from e
    table = data.get("tool", {}).get("irlint", data if explicit and "tool" not in data else {})
    values: dict[str, Any] = {}
    for key, value in table.items():
        kind = KEYS.get(key)
        if kind is None:
            raise ConfigError(f"{path}: unknown key '{key}' in [tool.irlint] (known: {', '.join(KEYS)})")
        if kind is list and isinstance(value, str):
            value = [value]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ConfigError(f"{path}: [tool.irlint] {key} must be a {kind.__name__}")
        if key == "per-file-ignores":
            value = _per_file_ignores(path, value)
        values[key] = value
    return Config(path, values)


def _per_file_ignores(path: Path, table: dict[str, Any]) -> dict[str, list[str]]:
    """`{"legacy/**" = ["T211"]}`: glob -> code prefixes (a bare string is one prefix)."""
    out: dict[str, list[str]] = {}
    for pattern, codes in table.items():
        if isinstance(codes, str):
            codes = [codes]
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise ConfigError(f"{path}: [tool.irlint] per-file-ignores.{pattern!r} must be a list of codes")
        out[pattern] = codes
    return out
