"""argparse types that refuse nonsense numbers at parse time (exit 2 with argparse's usage message).

Why: a negative `--max-iterations`, a zero `--memory-budget` or a NaN tolerance used to be accepted
and then misbehave (or fail inside the run as an internal error) instead of being a usage error.
"""

from __future__ import annotations

import argparse
import math


def positive_int(text: str) -> int:
    """An integer >= 1."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive integer")
    return value


def non_negative_int(text: str) -> int:
    """An integer >= 0."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more")
    return value


def port_number(text: str) -> int:
    """A TCP port, 1 to 65535 (a larger one was an OverflowError from the socket module)."""
    value = _int(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return value


def non_negative_float(text: str) -> float:
    """A finite float >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number, 0 or more")
    return value


def positive_float(text: str) -> float:
    """A finite float > 0."""
    value = non_negative_float(text)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be more than 0")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
