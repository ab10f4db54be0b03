"""Reports on a stream that cannot carry every character (stdout under `LC_ALL=C PYTHONUTF8=0` is ASCII).

Why: a layer name in Japanese or a `ü` in a message must not end the report in a UnicodeEncodeError.
What the stream cannot carry is escaped in the format's own syntax, so the output stays valid: JSON and
SARIF become pure ASCII with `\\uXXXX` escapes (any JSON parser reads the characters back, and the text
is still UTF-8 as the formats require), JUnit pure ASCII with character references (its declaration
says UTF-8), and text, concise and GitHub annotations show a visible `\\uXXXX` for each character the
encoding lacks.
"""

from __future__ import annotations

import codecs

_DATA = {"json": "irlint-json", "sarif": "irlint-json", "junit": "irlint-xml"}


def _json_escape(c: str) -> str:
    o = ord(c)
    if o > 0xFFFF:  # JSON spells a character beyond the BMP as a surrogate pair
        o -= 0x10000
        return f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}"
    return f"\\u{o:04x}"


def _visible_escape(c: str) -> str:
    o = ord(c)
    return f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}"


def _handler(escape):  # type: ignore[no-untyped-def]
    def handle(e: UnicodeError) -> tuple[str, int]:
        if not isinstance(e, UnicodeEncodeError):
            raise e
        return "".join(escape(c) for c in e.object[e.start : e.end]), e.end

    return handle


codecs.register_error("irlint-json", _handler(_json_escape))
codecs.register_error("irlint-xml", _handler(lambda c: f"&#x{ord(c):x};"))
codecs.register_error("irlint-visible", _handler(_visible_escape))


def _is_utf(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def fit_encoding(fmt: str, text: str, encoding: str | None) -> str:
    """`text`, a report in `fmt`, made writable to a stream in `encoding` (unchanged on a UTF stream)."""
    if not encoding or _is_utf(encoding):
        return text
    if fmt in _DATA:  # machine formats are UTF-8 by definition: all of their non-ASCII is escaped
        return text.encode("ascii", _DATA[fmt]).decode("ascii")
    try:
        return text.encode(encoding, "irlint-visible").decode(encoding)
    except LookupError:
        return text.encode("ascii", "irlint-visible").decode("ascii")
