"""The Python API on an `openvino.Model` in memory: check, run, step, trace, render and compare it without a file.

The model is serialised into a temporary directory that is always removed (irlint.ir.ovmodel), and compare's
OpenVINO child reads a temporary copy; these tests point the temporary directory (this process's and its
children's) and the working directory at empty folders and look at them after, also after a failure and
after Ctrl-C.
"""

from __future__ import annotations

import tempfile
from html import escape as html_escape
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.comparison import CompareError
from irlint.diagnostics import Severity
from irlint.interp.events import IterationStarted, RunFinished
from irlint.ir.ovmodel import is_openvino_model, serialized_xml

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

EVIL = "<script>alert('x')</script>&"


def unused_state_loop(name: str = "unused_state") -> object:
    """A Loop whose merged body Parameter nobody reads (BE506, a warning), named with markup."""
    x = ops.parameter([2], np.float32, name="x")
    ci = ops.parameter([], np.int64, name="i")
    acc, unused = ops.parameter([2], np.float32, name="acc"), ops.parameter([2], np.float32, name=EVIL)
    nxt = ops.add(acc, ops.convert(ci, np.float32))
    r_acc, r_unused, r_cond = ops.result(nxt), ops.result(ops.relu(acc)), ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r_acc, r_unused, r_cond], [ci, acc, unused]))
    loop.set_special_body_ports([0, 2])
    loop.set_merged_input(acc, x.output(0), r_acc.output(0))
    loop.set_merged_input(unused, x.output(0), r_unused.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r_acc.output(0), -1), name="acc")], [x], name)


@pytest.fixture
def quiet_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """An empty temporary directory (tempfile's, and TMPDIR for child processes) and an empty working
    directory, both watched."""
    tmp, cwd = tmp_path / "tmp", tmp_path / "cwd"
    tmp.mkdir()
    cwd.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.chdir(cwd)
    return tmp, cwd


def test_an_openvino_model_is_recognised_without_importing_openvino() -> None:
    assert is_openvino_model(unused_state_loop())
    assert not is_openvino_model(object())
    assert not is_openvino_model("model.xml")
    fake = type("Model", (), {"__module__": "somewhere.else"})()
    assert not is_openvino_model(fake)


def test_check_locates_findings_in_the_serialised_xml(quiet_dirs: tuple[Path, Path]) -> None:
    model = unused_state_loop()
    diags = irlint.check(model)
    be506 = [d for d in diags if d.code == "BE506"]
    assert len(be506) == 1 and be506[0].severity is Severity.WARNING
    d = be506[0]
    assert d.loc.path == "<openvino.Model 'unused_state'>"
    xml = serialized_xml(irlint.load(model))
    assert xml is not None
    lines = xml.splitlines()
    assert lines[d.loc.line - 1].strip() == '<edge from-layer="8" to-layer="2" />'
    assert f"body layer 2 '{EVIL}' (Parameter)" in d.message  # the friendly name
    (param,) = d.related
    assert param.loc.path == d.loc.path
    assert '<layer id="2" name="&lt;script>alert(\'x\')&lt;/script>&amp;" type="Parameter"' in lines[param.loc.line - 1]
    assert all(not any(p.iterdir()) for p in quiet_dirs)


def test_diagnostics_show_as_escaped_html(quiet_dirs: tuple[Path, Path]) -> None:
    diags = irlint.check(unused_state_loop())
    assert isinstance(diags, list) and diags
    page = diags._repr_html_()
    assert "BE506" in page and "&lt;openvino.Model &#x27;unused_state&#x27;&gt;" in page
    assert "<script>" not in page and "alert(&#x27;x&#x27;)" in page
    assert "(lines and columns of the XML openvino.serialize writes for it, layers by friendly name)" in page
    assert "<code>&lt;edge from-layer=&quot;8&quot; to-layer=&quot;2&quot; /&gt;</code>" in page


def test_diagnostics_as_text_say_where_their_lines_are() -> None:
    """`.text()` and IPython's plain-text display: `irlint check`'s output, with the serialised XML's lines."""
    pretty = pytest.importorskip("IPython.lib.pretty").pretty
    diags = irlint.check(unused_state_loop())
    text = diags.text()
    assert text.startswith(
        "<openvino.Model 'unused_state'>: lines and columns of the XML openvino.serialize writes for it, "
        "layers by friendly name\n\n<openvino.Model 'unused_state'>:34:5: BE506 [warning] "
    )
    assert '34 | <edge from-layer="8" to-layer="2" />' in text and "note: the unused Parameter" in text
    assert text.endswith("Found 1 warning in 1 file.\n")
    assert pretty(diags) == text.rstrip("\n")
    broken = Path(__file__).resolve().parents[1] / "examples" / "broken" / "lstm_ti_broken.xml"
    from_file = irlint.check(broken).text()
    assert from_file.startswith(f"{broken}:") and "openvino.serialize" not in from_file


def test_a_clean_model_says_so_in_html() -> None:
    p = ops.parameter([1], np.float32, name="p")
    html = irlint.check(ov.Model([ops.result(ops.relu(p))], [p], "fine"))._repr_html_()
    assert html == "<p><b>irlint</b>: no findings in &lt;openvino.Model &#x27;fine&#x27;&gt;.</p>"


def test_run_step_trace_render_and_compare_take_the_model(quiet_dirs: tuple[Path, Path]) -> None:
    model = unused_state_loop()
    x = np.array([1.0, -2.0], np.float32)
    want = np.asarray(ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})({"x": x})[0])
    got = irlint.run(model, {"x": x})
    np.testing.assert_array_equal(got["acc"], want)

    stepper = irlint.step(model, {"x": x})
    starts, last = 0, None
    while not stepper.finished:
        ev = stepper.next_iteration()
        starts += isinstance(ev, IterationStarted)
        last = ev if ev is not None else last
    assert starts == 3 and isinstance(last, RunFinished)
    np.testing.assert_array_equal(last.outputs["acc"], want)

    with irlint.trace(model, {"x": x}) as run:
        np.testing.assert_array_equal(run.outputs["acc"], want)
        rows = run.series("acc")
        assert [label for label, _v in next(iter(rows.values()))] == ["0", "1", "2"]
        svg = irlint.render(run, iteration=1).svg
        assert "<svg" in svg
        plot = run.plot()._repr_svg_()
        assert plot.lstrip().startswith("<?xml") and "<svg" in plot

    result = irlint.compare(model, {"x": x}, inside=[])  # OpenVINO's child reads a temporary copy
    assert result.ok and result.report["model"] == "<openvino.Model 'unused_state'>", result.text()
    assert result.report["inside"]["compared"]
    two = irlint.compare(model, {"x": x}, unused_state_loop(), openvino=True)
    # a second build names its layers anew: renamed, matched and compared as one layer each, nothing else
    assert two.ok and {c["kind"] for c in two.report["changes"]} <= {"renamed"}, two.text()
    assert all(not any(p.iterdir()) for p in quiet_dirs)


def test_the_temporary_directory_is_removed_when_serialising_fails(
    quiet_dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def half_written(model: object, xml: str, bin_: str) -> None:
        Path(xml).write_text("<net")
        raise RuntimeError("Check 'something' failed")

    monkeypatch.setattr(ov, "serialize", half_written)
    model = unused_state_loop("broken")
    diags = irlint.check(model)
    assert [(d.code, d.loc.path) for d in diags] == [("IR001", "<openvino.Model 'broken'>")]
    assert "openvino could not serialise it: Check 'something' failed" in diags[0].message
    x = {"x": np.array([1.0, 2.0], np.float32)}
    said = "<openvino.Model 'broken'>: openvino could not serialise it: Check 'something' failed"
    for call in (lambda: irlint.run(model, x), lambda: irlint.step(model, x), lambda: irlint.render(model)):
        with pytest.raises(irlint.api.LoadError) as refused:
            call()
        assert str(refused.value) == said
    with pytest.raises(CompareError, match="openvino could not serialise it"):
        irlint.compare(model, x)
    assert all(not any(p.iterdir()) for p in quiet_dirs)


def test_load_refuses_what_is_no_model() -> None:
    with pytest.raises(irlint.api.LoadError, match="expected a path"):
        irlint.load(42)  # type: ignore[arg-type]
    assert [d.code for d in irlint.check(42)] == ["IR001"]  # type: ignore[arg-type]


def test_the_diagram_escapes_model_strings_and_refuses_what_render_refuses() -> None:
    model = unused_state_loop()
    svg = irlint.render(model).svg
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    x = {"x": np.array([1.0, 2.0], np.float32)}
    with irlint.trace(model, x) as run:
        with pytest.raises(ValueError, match="out of range"):
            irlint.render(run, iteration=7)
        with pytest.raises(ValueError, match="go together"):
            irlint.render(model, trace=run)
    with pytest.raises(ValueError, match="more than 3 layers"):
        irlint.render(model, max_nodes=3)


def test_diagnostics_of_a_file_show_its_xml_lines() -> None:
    broken = Path(__file__).resolve().parents[1] / "examples" / "broken" / "lstm_ti_broken.xml"
    diags = irlint.check(broken)
    html = diags._repr_html_()
    first = diags[0]
    line = broken.read_text().splitlines()[first.loc.line - 1].strip()
    assert f"<code>{html_escape(line)}</code>" in html
    assert html.count("<tr>") == len(diags) + 1  # a row per finding below the header


def test_diagnostics_pickle_as_a_plain_list() -> None:
    import pickle

    diags = irlint.check(unused_state_loop())
    back = pickle.loads(pickle.dumps(diags))
    assert type(back) is list and back == list(diags)


def test_without_graphviz_the_diagram_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    diagram = irlint.render(unused_state_loop())
    assert "digraph" in diagram.dot  # the DOT source needs no program
    monkeypatch.setenv("PATH", str(tmp_path))  # no `dot` on it
    with pytest.raises(RuntimeError, match="needs Graphviz's `dot` program"):
        diagram._repr_svg_()


def test_an_interruption_leaves_nothing_behind(quiet_dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while OpenVINO serialises the model, or while compare's OpenVINO child runs on its temporary
    copy: KeyboardInterrupt reaches the caller and the temporary directories are gone."""
    import irlint.comparison.openvino as ov_side

    model, x = unused_state_loop(), {"x": np.array([1.0, 2.0], np.float32)}
    real_serialize = ov.serialize

    def interrupted_serialize(m: object, xml: str, bin_: str) -> None:
        real_serialize(m, xml, bin_)
        raise KeyboardInterrupt

    monkeypatch.setattr(ov, "serialize", interrupted_serialize)
    for call in (lambda: irlint.check(model), lambda: irlint.run(model, x), lambda: irlint.render(model)):
        with pytest.raises(KeyboardInterrupt):
            call()
        assert all(not any(p.iterdir()) for p in quiet_dirs)
    monkeypatch.setattr(ov, "serialize", real_serialize)

    during: list[str] = []

    def interrupted_child(*args: object, **kwargs: object) -> None:
        during.extend(sorted(p.name.rsplit("-", 1)[0] for p in quiet_dirs[0].iterdir()))
        raise KeyboardInterrupt

    monkeypatch.setattr(ov_side.subprocess, "run", interrupted_child)
    with pytest.raises(KeyboardInterrupt):
        irlint.compare(model, x)
    assert during == ["irlint-compare", "irlint-compare-model"]  # the inputs, and the model's copy
    assert all(not any(p.iterdir()) for p in quiet_dirs)
