"""The attributes OpenVINO fills when `<data>` lacks them (irlint.ops.openvino_fills): irlint binds each to
the value OpenVINO fills, and every other required attribute stays required."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from irlint.ops import bind_attrs, lookup
from irlint.ops.base import _parser_for, openvino_fill
from irlint.ops.openvino_fills import FILLED


def _hint(cls: type, name: str) -> object:
    return typing.get_type_hints(cls)[name]


@pytest.mark.parametrize("key", sorted(FILLED), ids=["/".join(k) for k in sorted(FILLED)])
def test_a_missing_filled_attribute_binds_to_openvinos_value(key: tuple[str, str, str]) -> None:
    typ, versions, attr = key
    op = lookup(typ, versions.split(",")[0])
    assert op is not None
    field = next(f for f in dataclasses.fields(op.Attrs) if f.metadata.get("ir", f.name) == attr)
    assert field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
    _, problems = bind_attrs(op.Attrs, {})
    assert not any(f"'{attr}'" in p for p in problems), problems
    assert openvino_fill(op.Attrs, attr) == FILLED[key]
    _parser_for(_hint(op.Attrs, field.name))(FILLED[key])  # the value parses as the attribute's type


def test_an_attribute_openvino_does_not_fill_stays_required() -> None:
    op = lookup("Einsum", "opset7")  # OpenVINO refuses an Einsum without equation at read
    assert ("Einsum", "opset7", "equation") not in FILLED
    _, problems = bind_attrs(op.Attrs, {})
    assert problems == ["required attribute 'equation' is missing"]
