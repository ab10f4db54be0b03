"""`irlint check --fix`: repairs of IR text at the byte offsets the loader records.

`edits` (byte-range edits and their applier), `xmltext` (finding values in the raw XML),
`registry` (fix providers keyed by rule code), `wiring` and `providers` (the built-in ones),
`catalog` (which codes have a fix), `engine` (check, fix, re-check until stable; atomic writes).
Imports go one way, in that order.
"""

from irlint.fix.catalog import fix_info, fixable_codes
from irlint.fix.engine import FixOutcome, fix_bytes, fix_file, write_atomic
from irlint.fix.registry import Fix, FixInfo

__all__ = ["Fix", "FixInfo", "FixOutcome", "fix_bytes", "fix_file", "fix_info", "fixable_codes", "write_atomic"]
