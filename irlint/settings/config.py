"""`[tool.irlint]` in the nearest pyproject.toml (or `--config FILE`): defaults for `irlint check`'s options
(a run's limits are the command's options: a key nothing would read is refused as unknown)."""

from __future__ import annotations

import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irlint.settings.perfile import GlobError, compile_glob

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
                data = _parse(candidate, candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            tool = data.get("tool")
            if isinstance(tool, dict) and "irlint" in tool:  # (`tool = 5` is another program's problem)
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
    try:
        own = find_pyproject(cwd)
    except ConfigError:  # the current directory's configuration cannot be read: it trusts nothing
        return False
    return own is not None and own.resolve() == config.path.resolve()


def load_config(explicit: str | None, start: Path) -> Config:
    """Read `--config FILE` (a pyproject.toml or a bare irlint.toml) or discover one from `start`."""
    path = Path(explicit) if explicit else find_pyproject(start)
    if path is None:
        return Config()
    try:
        _check_file(path)
        data = _parse(path, path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read config {path}: {e}") from e
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"invalid TOML in {path}: {e}") from e
    table, where = _irlint_table(path, data, explicit is not None)
    values: dict[str, Any] = {}
    for key, value in table.items():
        kind = KEYS.get(key)
        if kind is None:
            raise ConfigError(
                f"{path}: unknown key {_short(key)} {('in ' + where) if where else ''}(known: {', '.join(KEYS)})"
            )
        if kind is list and isinstance(value, str):
            value = [value]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ConfigError(f"{path}: {where}{key} must be a {kind.__name__}")
        if kind is list and not all(isinstance(v, str) for v in value):
            bad = next(v for v in value if not isinstance(v, str))
            raise ConfigError(f"{path}: {where}{key} must be a list of strings ({_short(bad)} is not one)")
        if key == "per-file-ignores":
            value = _per_file_ignores(path, where, value)
        values[key] = value
    return Config(path, values)


def _irlint_table(path: Path, data: dict[str, Any], explicit: bool) -> tuple[dict[str, Any], str]:
    """irlint's settings in a parsed file and the prefix messages give its keys: `[tool.irlint] `, or none
    for the whole of a file given with `--config` that has no `tool` (a bare irlint.toml). Refused (ConfigError):
    a `tool` or `tool.irlint` that is not a table."""
    if "tool" not in data:
        return (data, "") if explicit else ({}, "[tool.irlint] ")
    tool = data["tool"]
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: tool must be a table, not {_short(tool)}")
    table = tool.get("irlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.irlint must be a table, not {_short(table)}")
    return table, "[tool.irlint] "


def _per_file_ignores(path: Path, where: str, table: dict[str, Any]) -> dict[str, list[str]]:
    """`{"legacy/**" = ["T211"]}`: glob -> code prefixes (a bare string is one prefix)."""
    out: dict[str, list[str]] = {}
    for pattern, codes in table.items():
        if isinstance(codes, str):
            codes = [codes]
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise ConfigError(f"{path}: {where}per-file-ignores.{_short(pattern)} must be a list of codes")
        try:
            compile_glob(pattern.removeprefix("./"))
        except GlobError as e:
            raise ConfigError(f"{path}: {where}per-file-ignores key {_short(pattern)} is not a glob: {e}") from None
        out[pattern] = codes
    return out


MAX_DEPTH = 100  # arrays and inline tables nested deeper than this are refused (tomllib recurses per level)


def _parse(path: Path, text: str) -> dict[str, Any]:
    """`tomllib.loads`, refusing deep nesting first: tomllib recurses once per level, so 3,000 nested
    arrays (in any table, another tool's too) would end in a RecursionError instead of a message."""
    where = _too_deep(text)
    if where is not None:
        line, key = where
        raise ConfigError(
            f"{path}: line {line}: the value of {_short(key)} is nested more than {MAX_DEPTH} "
            "arrays or tables deep; irlint does not read it"
        )
    try:
        return tomllib.loads(text)
    except RecursionError:  # nesting the scan above does not see (it is kept simple)
        raise ConfigError(f"{path}: nested too deeply for irlint to read") from None


# what _too_deep looks at: comments and strings (skipped whole), brackets, "=" and line ends. A string
# without its closing quote runs to the end of its line (of the text for a multi-line one): every
# alternative matches where it starts, so no start is tried twice and the scan stays linear.
_TOKENS = re.compile(
    r'''#[^\n]*|"""(?:\\.|[^\\])*?(?:"""|\Z)|\'\'\'.*?(?:\'\'\'|\Z)|"(?:\\.|[^"\\\n])*"?|'[^'\n]*'?|[][{}=\n]''',
    re.S,
)


def _too_deep(text: str) -> tuple[int, str] | None:
    """(line, key) where `[`/`{` nesting first passes MAX_DEPTH outside strings and comments, or None.
    A rough scan in one regex pass: an error in the TOML itself is left to tomllib."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth, key, line, start = 0, "", 1, 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c == "\n":
            line, start = line + 1, m.end()
        elif c == "=":
            if depth == 0:
                key = text[start : m.start()].strip()
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return line, key
        elif c in "]}":
            depth = max(depth - 1, 0)
        elif "\n" in c:  # a multi-line string
            line, start = line + c.count("\n"), m.start() + c.rfind("\n") + 1
    return None


def _short(value: object, limit: int = 60) -> str:
    """`value` quoted for a message, cut to `limit` characters (a key may be megabytes long)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...'"
