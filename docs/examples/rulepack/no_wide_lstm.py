"""An example user rule pack: load it with `irlint --rules docs/examples/rulepack model.xml`.

A pack is any folder of Python files whose globals hold rules declared with `irlint.rule.rule`.
Codes must be new (a family prefix of your own plus three digits).
"""

from collections.abc import Iterator

from irlint.rule import Finding, rule


@rule("X101", "lstm-hidden-size-too-large", severity="warning", types=("LSTMCell",))
def lstm_hidden_size_too_large(ctx, graph, layer) -> Iterator[Finding]:
    """An LSTMCell has a hidden_size above the team's limit of 1024.

    What it checks:
    The `hidden_size` attribute of every LSTMCell, at every nesting level.

    Why it matters:
    Our deployment target runs out of memory for wider cells.

    Example:
    ```xml
    <data hidden_size="4096" .../>
    ```

    How to fix:
    Retrain with a smaller hidden size or split the cell.
    """
    size = int(layer.data.get("hidden_size", "0"))
    if size > 1024:
        yield Finding(f"{layer.describe()}: hidden_size {size} exceeds 1024", layer.data_loc or layer.loc,
                      layer=layer.path, hint="keep hidden_size <= 1024")
