"""Fix providers keyed by rule code: what a fix is, and which rules have one.

A provider reads one diagnostic, the model it was found in and shape inference, and returns the
text edits that repair it (or None when the repair is not certain enough to offer). Providers
live beside, not inside, the rule modules: a rule says what is wrong, a provider how to write it
right, and `irlint explain CODE` shows both.

Applicability, as in ruff: a *safe* fix restores what OpenVINO already computes (it ignores the
declared value the fix rewrites), so the model that runs is unchanged; an *unsafe* fix guesses
(which of two ends is right, where weights lie) and is applied only with `--unsafe-fixes`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from irlint.diagnostics import Diagnostic
from irlint.engine.context import Context
from irlint.fix.edits import Edit
from irlint.ir.model import Layer, Model, Port
from irlint.layerpath import find_layer


@dataclass(frozen=True, slots=True)
class Fix:
    """The edits that repair one diagnostic; `target` is what must be gone after it (code, layer, port)."""

    code: str
    layer: str | None
    port: int | None
    edits: tuple[Edit, ...]
    description: str
    safe: bool = True

    @property
    def target(self) -> tuple[str, str | None, int | None]:
        return (self.code, self.layer, self.port)


@dataclass(frozen=True, slots=True)
class FixInfo:
    """What a rule's fix does, for `irlint explain` and `--statistics`."""

    code: str
    applicability: str  # "safe", "unsafe", or "safe or unsafe" (depends on the finding)
    summary: str


@dataclass
class FixContext:
    """What a provider may read: the model, its rule context (shapes), the file's bytes."""

    model: Model
    ctx: Context
    data: bytes
    unsafe: bool = False  # where two repairs are possible, a provider may prefer the guess the user allowed
    _memo: dict[object, object] = field(default_factory=dict)

    def layer(self, path: str | None) -> Layer | None:
        return find_layer(self.model, path)

    def port_at(self, layer: Layer, port: Port) -> int | None:
        """The byte offset of `port`'s `<port>` element (None when it cannot be placed)."""
        parts = layer.src.layer_parts(layer.at)
        if parts is None:
            return None
        for mine, offsets in ((layer.inputs, parts.inputs), (layer.outputs, parts.outputs)):
            for i, p in enumerate(mine):
                if p is port:
                    return offsets[i] if i < len(offsets) else None
        return None

    def data_at(self, layer: Layer) -> int | None:
        parts = layer.src.layer_parts(layer.at)
        return None if parts is None else parts.data


Provider = Callable[[FixContext, Diagnostic], "Fix | None"]
PROVIDERS: dict[str, tuple[FixInfo, Provider]] = {}


def provides(code: str, applicability: str, summary: str) -> Callable[[Provider], Provider]:
    """Register the fix provider of rule `code` (one per code)."""
    def wrap(fn: Provider) -> Provider:
        if code in PROVIDERS:
            raise ValueError(f"two fix providers for {code}")
        PROVIDERS[code] = (FixInfo(code, applicability, summary), fn)
        return fn
    return wrap
