"""The built-in rule pack (installed as irlint.rules)."""
