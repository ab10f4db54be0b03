"""Which rules have a fix, once every built-in provider is registered.

Why a module of its own: the registry is what providers import to register, so the registry cannot
import the providers back; this module sits above both (registry <- wiring <- providers <- catalog).
"""

from __future__ import annotations

from irlint.fix import providers as _providers  # noqa: F401  (registers the built-in providers)
from irlint.fix.registry import PROVIDERS, FixInfo


def fix_info(code: str) -> FixInfo | None:
    """The fix of rule `code`, or None when it has none."""
    got = PROVIDERS.get(code)
    return got[0] if got else None


def fixable_codes() -> frozenset[str]:
    return frozenset(PROVIDERS)
