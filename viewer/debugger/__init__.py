"""`irlint debug`: a Textual step debugger over the interpreter's stepper (session.py holds no UI code)."""
