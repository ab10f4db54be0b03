"""Imports inside irlint/fix/ go one way (no module imports, even lazily inside a function, a module
that imports it back), and the CI-facing settings (irlint.settings) stay out of irlint's core."""

from __future__ import annotations

import ast
from pathlib import Path

import irlint

ROOT = Path(irlint.__file__).parent


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports, at any depth of its code (`from a import b` counts as a.b too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def test_fix_modules_import_one_way() -> None:
    modules = {f"irlint.fix.{p.stem}": p for p in (ROOT / "fix").glob("*.py") if p.stem != "__init__"}
    graph = {m: imports_of(p) & set(modules) for m, p in modules.items()}
    done: set[str] = set()

    def visit(m: str, stack: list[str]) -> None:
        if m in stack:
            raise AssertionError("import circle: " + " -> ".join([*stack[stack.index(m):], m]))
        if m in done:
            return
        for n in sorted(graph[m]):
            visit(n, [*stack, m])
        done.add(m)

    for m in sorted(graph):
        visit(m, [])


def test_the_core_does_not_import_the_settings() -> None:
    settings = ROOT / "settings"
    for path in ROOT.rglob("*.py"):
        if settings in path.parents or "cli" in path.relative_to(ROOT).parts:
            continue
        assert not any(m.startswith("irlint.settings") for m in imports_of(path)), path
    assert not (ROOT / "config.py").exists() and not (ROOT / "baseline.py").exists()
