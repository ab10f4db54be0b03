"""Why a comparison could not be made."""

from __future__ import annotations


class CompareError(ValueError):
    """The comparison cannot be made as asked (a layer that does not exist, models whose inputs differ):
    the command line's usage error, exit 2."""
