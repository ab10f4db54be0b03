"""The edit applier keeps every untouched byte; the XML helpers place values exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlint.fix.edits import Edit, EditConflict, apply_edits
from irlint.fix.xmltext import Tag, format_shape_attr, port_dims_text, set_port_dims

PORT = (
    b'<layer id="1">\n\t\t\t\t<port id="2" precision="FP32" names="a,b">\n\t\t\t\t\t<dim>1</dim>\n'
    b"\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>\n</layer>\n"
)
AT = PORT.index(b"<port")


def test_apply_keeps_the_rest() -> None:
    data = b"0123456789"
    assert apply_edits(data, [Edit(2, 4, b"xy"), Edit(6, 6, b"++"), Edit(8, 10, b"")]) == b"01xy45++67"
    with pytest.raises(EditConflict):
        apply_edits(data, [Edit(2, 5, b"a"), Edit(4, 6, b"b")])
    with pytest.raises(EditConflict):
        apply_edits(data, [Edit(3, 3, b"a"), Edit(3, 3, b"b")])  # two insertions at one place: order unknown
    with pytest.raises(EditConflict):
        apply_edits(data, [Edit(8, 12, b"a")])


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=0, max_size=200), st.data())
def test_untouched_bytes_are_identical(data: bytes, draw: st.DataObject) -> None:
    """Property: outside the edited ranges the output is the input, byte for byte, in order."""
    cuts = sorted(draw.draw(st.lists(st.integers(0, len(data)), max_size=8, unique=True)))
    edits = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        if a < b:
            edits.append(Edit(a, b, draw.draw(st.binary(max_size=5))))
    out = apply_edits(data, edits)
    pos, o = 0, 0
    for e in edits:
        assert out[o : o + e.start - pos] == data[pos : e.start]
        o += e.start - pos + len(e.text)
        pos = e.end
    assert out[o:] == data[pos:]


def test_attribute_change_and_insert() -> None:
    tag = Tag(PORT, AT)
    assert tag.attr("precision") == "FP32" and tag.attr("names") == "a,b" and tag.attr("nope") is None
    assert apply_edits(PORT, [tag.set_attr("precision", "FP16")]) == PORT.replace(b"FP32", b"FP16")
    added = apply_edits(PORT, [tag.set_attr("x", 'a"b')])
    assert b'names="a,b" x="a&quot;b">' in added


@pytest.mark.parametrize(
    ("dims", "expected"),
    [
        ([1, 3], []),
        ([1, 7], ["1", "7"]),
        ([2, 3, 4], ["2", "3", "4"]),
        ([5], ["5"]),
        ([], []),
    ],
)
def test_port_dims(dims: list[int], expected: list[str]) -> None:
    edits = set_port_dims(PORT, AT, dims)
    out = apply_edits(PORT, edits)
    assert port_dims_text(out, AT) == (expected or [str(d) for d in dims])
    if dims == [1, 3]:
        assert edits == []
    if dims == [2, 3, 4]:  # a dim added with the separator the port already uses
        assert b"\t\t\t\t\t<dim>3</dim>\n\t\t\t\t\t<dim>4</dim>\n\t\t\t\t</port>" in out
    if not dims:
        assert b'names="a,b">\n\t\t\t\t</port>' in out
    assert out.endswith(b"\t\t\t\t</port>\n</layer>\n") and out.startswith(PORT[:AT])


def test_equal_dims_written_differently_are_left_alone() -> None:
    data = b'<port id="0"><dim> 1 </dim><dim>2</dim></port>'
    assert apply_edits(data, set_port_dims(data, 0, [1, 5])) == b'<port id="0"><dim> 1 </dim><dim>5</dim></port>'


def test_cdata_dims_count_as_dims() -> None:
    """`<dim><![CDATA[1]]></dim>` is the dim 1 to a parser: it keeps its place, and is rewritten when it changes."""
    data = b'<port id="0"><dim><![CDATA[1]]></dim><dim>6</dim><dim> <![CDATA[3]]> </dim></port>'
    assert port_dims_text(data, 0) == ["1", "6", " 3 "]
    assert apply_edits(data, set_port_dims(data, 0, [1, 5, 3])) == data.replace(b"6", b"5")
    assert apply_edits(data, set_port_dims(data, 0, [2, 6, 3])) == data.replace(b"<![CDATA[1]]>", b"2")


def test_dims_with_comments_instructions_and_references_count_as_dims() -> None:
    """What a parser skips (comments, processing instructions) or decodes (references) inside a `<dim>` keeps
    the dim in its place: its value is what the loader reads (`1<!-- c -->2` is 12)."""
    data = b'<port id="0"><dim>1<!-- c -->2</dim><dim><?pi x?>6</dim><dim>&#51;</dim></port>'
    assert port_dims_text(data, 0) == ["12", "6", "3"]
    assert set_port_dims(data, 0, [12, 6, 3]) == []
    assert apply_edits(data, set_port_dims(data, 0, [12, 5, 3])) == data.replace(b"<?pi x?>6", b"5")
    assert apply_edits(data, set_port_dims(data, 0, [12, 6])) == data.replace(b"<dim>&#51;</dim>", b"")


def test_self_closing_port_grows() -> None:
    data = b'<output>\n  <port id="0" precision="FP32" />\n</output>'
    at = data.index(b"<port")
    out = apply_edits(data, set_port_dims(data, at, [2]))
    assert out == b'<output>\n  <port id="0" precision="FP32">\n    <dim>2</dim>\n  </port>\n</output>'
    assert set_port_dims(data, at, []) == []


def test_shape_attr_keeps_its_style() -> None:
    assert format_shape_attr([1, 5, 4], "1,2,3") == "1,5,4"
    assert format_shape_attr([4, 3], "4, 2") == "4, 3"
    assert format_shape_attr([], "") == ""


def test_docs_list_every_fix() -> None:
    """docs/fixes.md has a row per fixable rule with its applicability."""
    from pathlib import Path

    from irlint.fix import fix_info, fixable_codes

    rows = {}
    for line in (Path(__file__).resolve().parents[2] / "docs" / "fixes.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 3:
            for code in cells[0].split(", "):
                rows[code] = cells[1]
    for code in fixable_codes():
        assert rows.get(code) == fix_info(code).applicability, code


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 4)), max_size=12))
def test_occupied_agrees_with_pairwise_overlap(spans: list[tuple[int, int]]) -> None:
    """The bisection index accepts an edit exactly when no accepted edit overlaps it pairwise."""
    from irlint.fix.edits import Occupied

    taken, accepted = Occupied(), []
    for start, length in spans:
        e = Edit(start, start + length, b"x")
        free = not any(e.overlaps(a) for a in accepted)
        assert taken.all_free([e]) is free
        if free:
            taken.claim([e])
            accepted.append(e)
    assert not taken.all_free([Edit(40, 42, b""), Edit(41, 41, b"")])  # a fix whose own edits overlap
