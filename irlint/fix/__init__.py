"""`irlint check --fix`: repairs of IR text at the byte offsets the loader records.

`edits` (byte-range edits and their applier), `xmltext` (finding values in the raw XML),
`registry` (fix providers keyed by rule code), `providers` (the built-in ones), `engine` (check,
fix, re-check until stable; atomic writes).
"""

from irlint.fix.engine import FixOutcome, fix_bytes, fix_file, write_atomic
from irlint.fix.registry import Fix, FixInfo, fix_info, fixable_codes

__all__ = ["Fix", "FixInfo", "FixOutcome", "fix_bytes", "fix_file", "fix_info", "fixable_codes", "write_atomic"]
