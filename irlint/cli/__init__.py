"""The command line: `irlint [check] FILES`, `rules`, `explain`, and commands added by packs."""
