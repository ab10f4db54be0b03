"""Text reporter: golden output, code frames (carets on byte columns, tabs, wide characters, long lines),
missing sources, control characters, colour, and the summary line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from irlint.diagnostics import Diagnostic, Location, Related, Severity
from irlint.report import render
from irlint.report.sourcelines import SourceLines, _scan
from irlint.report.text import MAX_WIDTH, char_width, summary
from tests.report.sample import FILES, MODEL, ODD, RULES, assert_golden, sample


def text(diags: list[Diagnostic], files: list[str] = FILES, color: bool = False) -> str:
    return render("text", diags, files=files, rules=RULES, color=color)


def caret_target(out: str, marker: str) -> str:
    """The text of the source line shown above the first caret after the frame whose line contains `marker`,
    starting at the caret's display column."""
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if marker in line and "|" in line)
    src, caret = lines[i], lines[i + 1]
    col = sum(char_width(c) for c in caret[: caret.index("^")])
    acc, k = 0, 0
    while acc < col:  # walk the source line by display width to the caret's column
        acc += char_width(src[k])
        k += 1
    return src[k:]


def test_golden() -> None:
    assert_golden("text.txt", text(sample()))


def test_golden_colour() -> None:
    assert_golden("text-color.txt", text(sample(), color=True))


def test_headline_frame_note_help_layout() -> None:
    out = text([d for d in sample() if d.code == "G102"])
    assert out.splitlines()[:5] == [
        f"{MODEL}:12:3: G102 [error] edge to-layer=9: no layer 9 in the top-level graph",
        f"  --> {MODEL}:12:3",
        "   |",
        '12 | <edge from-layer="0" from-port="0" to-layer="9" to-port="0" />',
        "   | ^",
    ]
    assert "note: layers are declared here" in out and f"  --> {MODEL}:4:3" in out
    assert " 4 | <layer id=" in out  # the gutter is as wide as the widest line number of the finding
    assert "help: edges connect layers of the same level" in out


def test_caret_under_byte_column_after_multibyte_and_wide_characters() -> None:
    out = text([d for d in sample() if d.loc == Location(ODD, 4, 47)])
    assert caret_target(out, "名前").startswith('type="Foo"')
    # worked by hand: '<layer id="1" name="' 20 columns, 'ünïcode ' 8, '名前' 4 (two wide characters), '" ' 2
    assert "  | " + " " * 34 + "^" in out.splitlines()


def test_caret_with_tab_indentation() -> None:
    out = text([d for d in sample() if d.code == "T203"])
    assert caret_target(out, "<port").startswith('<port id="0"')


def test_long_line_is_cut_around_the_column() -> None:
    d = next(d for d in sample() if d.loc.line == 5)
    out = text([d])
    frame_lines = [line for line in out.splitlines() if line.startswith("5 | ")]
    assert len(frame_lines) == 2
    for line in frame_lines:
        assert line.count("…") >= 1 and len(line) <= MAX_WIDTH + 10
    assert caret_target(out, 'type="Bar"').startswith('type="Bar"')
    note = out.split("note: attribute a45 is here")[1]
    assert caret_target(note, "a45").startswith('a45="45"')


def test_unreadable_file_or_line_past_eof_omits_the_frame(tmp_path: Path) -> None:
    diags = [
        Diagnostic("G102", Severity.ERROR, "gone", Location(str(tmp_path / "nowhere.xml"), 3, 1)),
        Diagnostic("G102", Severity.ERROR, "past the end", Location(MODEL, 999, 1)),
        Diagnostic("G102", Severity.ERROR, "a directory", Location(str(tmp_path), 1, 1)),
        Diagnostic("G102", Severity.ERROR, "past the line", Location(MODEL, 2, 500)),
    ]
    out = text(diags)
    assert "|" not in out and "-->" not in out
    assert f"{MODEL}:999:1: G102 [error] past the end" in out


def test_related_location_without_source_keeps_its_arrow() -> None:
    out = text([next(d for d in sample() if d.loc.line == 5)])
    after = out.split("note: a file that is not there\n")[1].splitlines()
    assert after[0] == " --> tests/report/data/missing.xml:3:1" and "|" not in after[1]


def test_binary_file_shows_no_frame(tmp_path: Path) -> None:
    binary = tmp_path / "model.bin"
    binary.write_bytes(b"\x00\x01\x02\n\x00\xff")
    out = text([Diagnostic("W301", Severity.ERROR, "m", Location(str(binary), 1, 1))])
    assert "|" not in out


def test_control_characters_never_reach_the_terminal() -> None:
    out = text(sample())
    assert "\x1b" not in out and "\r" not in out
    assert "escape ␛[31m in a name" in out and 'name="esc␛[31mred"' in out


def test_multiline_message_continues_indented() -> None:
    """Behind a bar: a later line of a message never starts, even after blanks, like a finding or a `::` command."""
    out = text([d for d in sample() if d.code == "T203"])
    assert "<tags> & ampersands,\n    | newline, 100% ünïcode" in out


def test_colour_only_when_asked() -> None:
    plain, colour = text(sample()), text(sample(), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31mG102\x1b[0m" in colour and "\x1b[1;33mwarning\x1b[0m" in colour
    assert "\x1b[1;36mhelp\x1b[0m" in colour and "\x1b[1;32mnote\x1b[0m" in colour
    # the caret stays in the same column once the escapes are removed
    assert re.sub(r"\x1b\[[0-9;]*m", "", colour) == plain


def test_sorted_by_path_line_column_code() -> None:
    heads = [line for line in text(sample()).splitlines() if line.startswith("tests/")]
    keys = [h.split(": ")[0] for h in heads]
    assert keys == [
        MODEL,
        f"{MODEL}:7:5",
        f"{MODEL}:12:3",
        f"{ODD}:4:47",
        f"{ODD}:5:555",
        f"{ODD}:6:42",
    ]


def _diags(errors: int, warnings: int, infos: int, paths: tuple[str, ...] = ("a.xml",)) -> list[Diagnostic]:
    out = []
    for sev, n in ((Severity.ERROR, errors), (Severity.WARNING, warnings), (Severity.INFO, infos)):
        out += [Diagnostic("X100", sev, "m", Location(paths[i % len(paths)], 1, 1)) for i in range(n)]
    return out


@pytest.mark.parametrize(
    "diags,checked,expected",
    [
        (_diags(0, 0, 0), 3, "All checks passed."),
        (_diags(0, 0, 1), 1, "All checks passed (1 info)."),
        (_diags(0, 0, 2), 1, "All checks passed (2 infos)."),
        (_diags(1, 0, 0), 1, "Found 1 error in 1 file."),
        (_diags(0, 1, 0), 1, "Found 1 warning in 1 file."),
        (_diags(3, 1, 0, ("a.xml", "b.xml")), 2, "Found 3 errors, 1 warning in 2 files."),
        (_diags(2, 2, 3, ("a.xml", "b.xml")), 5, "Found 2 errors, 2 warnings, 3 infos in 2 files (checked 5 files)."),
    ],
)
def test_summary_wording(diags: list[Diagnostic], checked: int, expected: str) -> None:
    assert summary(diags, checked) == expected


def test_summary_is_the_last_line() -> None:
    assert text([], files=[MODEL]) == "All checks passed.\n"
    assert text(sample()).endswith("\nFound 2 errors, 1 warning, 3 infos in 2 files.\n")


class _CountingReader(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.calls = 0

    def readline(self, size: int | None = -1) -> bytes:  # type: ignore[override]
        self.calls += 1
        return super().readline(size)


def test_source_lines_keep_only_wanted_lines_and_stop_after_the_last() -> None:
    f = _CountingReader(b"".join(b"line %d\n" % i for i in range(1, 1001)))
    assert _scan(f, {2, 5}) == {2: b"line 2", 5: b"line 5"}
    assert f.calls == 5


def test_source_lines_skip_the_tail_of_an_overlong_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("irlint.report.sourcelines.MAX_LINE_BYTES", 8)
    f = _CountingReader(b"x" * 50 + b"\nsecond\r\n")
    assert _scan(f, {1, 2}) == {1: b"x" * 8, 2: b"second"}


def test_source_lines_cache_per_file_and_read_unregistered_lines(tmp_path: Path) -> None:
    p = tmp_path / "m.xml"
    p.write_bytes(b"one\ntwo\nthree\n")
    lines = SourceLines([Location(str(p), 1, 1)])
    assert lines.line(str(p), 1) == b"one"
    assert lines.line(str(p), 3) == b"three"  # not registered up front: the file is read again
    p.write_bytes(b"changed\n")
    assert lines.line(str(p), 1) == b"one" and lines.line(str(p), 3) == b"three"  # cached from now on
    assert lines.line(str(p), 0) is None and lines.text(str(p), 1) == "one"
    assert SourceLines().line(str(p), 1) == b"changed"


def test_related_notes_share_the_gutter_width() -> None:
    d = Diagnostic("G102", Severity.ERROR, "m", Location(MODEL, 12, 3), related=(Related(Location(MODEL, 4, 3), "n"),))
    bars = [line.index("|") for line in text([d]).splitlines() if "|" in line]
    assert len(set(bars)) == 1
