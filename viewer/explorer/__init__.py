"""OpenVINO IR in Google's Model Explorer (the extra `irlint[explorer]`).

`model-explorer MODEL.xml --extensions=irlint.viewer.explorer` loads `main` (Model Explorer imports
`<extension>.main`), whose adapter turns the IR into Model Explorer graphs with `convert.convert`.
`irlint explore` (viewer/explore_cmd.py) starts the same server with findings and trace values.
"""
