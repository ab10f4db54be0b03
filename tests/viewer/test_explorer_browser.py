"""`irlint explore` in a real browser: Debian's chromium (headless, WebGL through SwiftShader) driven
by Playwright, never a downloaded browser. Opens the model, checks the findings and the traced
values in the side panel, steps into the TensorIterator body by its subgraph button, and asserts
that the page logged no errors (other than the web fonts it cannot reach offline). Screenshots go
to tmp/artifacts/explorer/ at the top of the repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("model_explorer")
playwright = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ARTEFACTS = ROOT / "tmp" / "artifacts" / "explorer"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FONT_HOSTS = ("fonts.googleapis.com", "fonts.gstatic.com")
SUBGRAPH_BUTTON = (194, 231, 255)  # the fill of Model Explorer's "step into subgraph" button

# CI installs chromium (scripts/setup.sh runs as root there), so a missing one fails instead of skipping
pytestmark = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                reason="Debian's chromium is not installed (scripts/setup.sh installs it as root)")


def _start(model: Path, trace: Path, iteration: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "irlint", "explore", str(model), "--trace", str(trace),
                             "--iteration", iteration, "--no-open", "--host", "127.0.0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 90
    assert proc.stdout is not None
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        seen.append(line)
        if line.startswith("http://127.0.0.1:"):
            return proc, line.strip()
    proc.kill()
    raise AssertionError("irlint explore did not start:\n" + "".join(seen))


def _wait_text(page, selector: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """Until the element's text (shown or folded away) holds `text`."""
    page.wait_for_function("([sel, text]) => (document.querySelector(sel)?.textContent || '').includes(text)",
                           arg=[selector, text])


def _wait_graph(page, test: str) -> None:  # type: ignore[no-untyped-def]
    """Until the graph selector names the graph `test` (a JavaScript string test) accepts."""
    page.wait_for_function(f"(document.querySelector('graph-selector .option-label')?.innerText || '').trim(){test}")


def _select(page, box, label: str) -> None:  # type: ignore[no-untyped-def]
    """Select the first node labelled `label` through the search box (Alt+click on the result)."""
    box.fill(label)
    page.locator("search-bar").get_by_text(label, exact=True).first.click(modifiers=["Alt"])


def _button_centre(png: bytes) -> tuple[int, int] | None:
    """Where the subgraph button is drawn on the canvas (left of the side panel, below the toolbar)."""
    import io

    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    canvas = pixels[130:, :1150]
    ys, xs = np.nonzero(np.all(canvas == SUBGRAPH_BUTTON, axis=-1))
    if len(xs) < 20:
        return None
    return int(np.median(xs)), int(np.median(ys)) + 130


def test_findings_values_and_stepping_into_the_body(tmp_path: Path) -> None:
    assert CHROMIUM is not None, "Debian's chromium is not installed: run scripts/setup.sh as root"
    trace = tmp_path / "t.npz"
    run = subprocess.run([sys.executable, "-m", "irlint", "run", str(EXAMPLES / "lstm_ti.xml"), "--inputs",
                          str(EXAMPLES / "inputs" / "lstm_ti.npz"), "--trace", str(trace)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    # the broken copy (its graph is named lstm_ti too) has lstm_ti's layers, so lstm_ti's trace fits it,
    # and four findings on them
    proc, url = _start(EXAMPLES / "broken" / "lstm_ti_broken.xml", trace, "3")
    errors: list[str] = []
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, timeout=60_000,
                                        args=["--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                                              "--no-sandbox"])
            try:
                page = browser.new_page(viewport={"width": 1600, "height": 1000})
                page.set_default_timeout(30_000)

                def on_console(msg) -> None:  # type: ignore[no-untyped-def]
                    url = (msg.location or {}).get("url", "")
                    if msg.type == "error" and not any(h in url for h in FONT_HOSTS):
                        errors.append(f"{msg.text} ({url})")

                page.on("console", on_console)
                page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
                for host in FONT_HOSTS:  # unreachable offline: fail fast instead of waiting
                    page.route(f"**://{host}/**", lambda route: route.abort())
                page.goto(url, timeout=60_000)
                selector = page.locator("graph-selector .option-label")
                selector.wait_for()
                # the main graph, with irlint's findings loaded as node data
                page.locator("graph-selector .graph-selector-label").click()
                page.get_by_text("lstm_ti", exact=True).first.click()
                _wait_graph(page, "=== 'lstm_ti'")
                page.get_by_text("irlint findings (severity)").first.wait_for()
                # step into the body with the subgraph button drawn next to the TensorIterator
                deadline, centre = time.monotonic() + 30, None
                while centre is None and time.monotonic() < deadline:
                    centre = _button_centre(page.screenshot())
                    if centre is None:
                        page.wait_for_timeout(500)
                assert centre is not None, "no subgraph button drawn"
                page.screenshot(path=str(ARTEFACTS / "1-main-graph.png"))
                page.mouse.click(*centre)
                _wait_graph(page, ".endsWith('#3 body')")
                # in the body: the traced values of iteration 3 as node data, the LSTMCell's findings
                page.get_by_text("max |value| at iteration 3").first.wait_for()
                from irlint.interp.trace import load_trace

                values, _ = load_trace(trace)
                h_prev = float(np.abs(values["3/body/1@3:in"]).max())  # what h_prev holds at iteration 3
                _wait_text(page, "body", repr(h_prev))
                page.screenshot(path=str(ARTEFACTS / "2-body-values.png"))
                box = page.get_by_placeholder("Search nodes/layers by regex")
                _select(page, box, "LSTMCell")
                _wait_text(page, "info-panel", "G103 [error]")
                _wait_text(page, "info-panel", "lstm_ti_broken.xml:255")
                _wait_text(page, "info-panel", "value at iteration 3")
                page.screenshot(path=str(ARTEFACTS / "3-body-lstmcell-findings-values.png"))
                # back to the main graph by the breadcrumb: the TensorIterator's own findings
                page.locator("body").get_by_text("lstm_ti", exact=True).first.click()
                _wait_graph(page, "=== 'lstm_ti'")
                _select(page, box, "TensorIterator")
                _wait_text(page, "info-panel", "PM401 [error]")
                _wait_text(page, "info-panel", "lstm_ti_broken.xml:39")
                page.screenshot(path=str(ARTEFACTS / "4-main-tensoriterator-findings.png"))
            finally:
                browser.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)
    assert not errors, errors
