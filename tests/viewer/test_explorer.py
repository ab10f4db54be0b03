"""The Model Explorer adapter (irlint[explorer]): IR -> graphs, findings and trace values as node data,
the extension loading the way `model-explorer --extensions=irlint.viewer.explorer` loads it, and
`irlint explore` serving a model."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import urllib.request
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("model_explorer")

from irlint.viewer.explorer.convert import (
    RUN_LIMIT,
    SEVERITY_VALUE,
    Iteration,
    Trace,
    convert,
    findings_node_data,
    iteration_node_data,
    iteration_runs,
    trace_node_data,
)

import irlint
from irlint.api import check_model
from irlint.interp.trace import load_trace
from tests.viewer.explorer_server import explore

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def cli(*args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=timeout)


def by_id(graphs):  # type: ignore[no-untyped-def]
    return {g.id: g for g in graphs}


def node(graph, name: str):  # type: ignore[no-untyped-def]
    return next(n for n in graph.nodes if attr(n, "name") == name)


def attr(n, key: str) -> str | None:  # type: ignore[no-untyped-def]
    return next((kv.value for kv in n.attrs if kv.key == key), None)


def out_meta(n, port: int) -> dict[str, str]:  # type: ignore[no-untyped-def]
    item = next(m for m in n.outputsMetadata if m.id == str(port))
    return {kv.key: kv.value for kv in item.attrs}


def traced(tmp_path: Path, name: str) -> dict[str, np.ndarray]:
    trace = tmp_path / "t.npz"
    r = cli("run", str(EXAMPLES / f"{name}.xml"), "--inputs", str(EXAMPLES / "inputs" / f"{name}.npz"),
            "--trace", str(trace))
    assert r.returncode == 0, r.stderr
    values, _ = load_trace(trace)
    return values


def test_bodies_are_subgraphs_and_edges_stay_inside_their_graph() -> None:
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    graphs = convert(model)
    ids = by_id(graphs)
    assert len(ids) == len(graphs) == 3  # the model, the TI body, the Loop body inside it
    for g in graphs:
        nodes = {n.id for n in g.nodes}
        for n in g.nodes:
            assert all(e.sourceNodeId in nodes for e in n.incomingEdges), (g.id, n.id)
            assert all(s in ids for s in n.subgraphIds)
    ti = next(n for n in graphs[0].nodes if n.label == "TensorIterator")
    body = ids[ti.subgraphIds[0]]
    loop = next(n for n in body.nodes if n.label == "Loop")
    assert loop.subgraphIds and ids[loop.subgraphIds[0]].nodes
    json.dumps({"graphs": [asdict(g) for g in graphs]})  # what the server sends


def test_edges_types_attributes_and_const_preview() -> None:
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    graphs = convert(model)
    main, body = graphs
    ti = node(main, "TensorIterator_23")
    assert attr(ti, "iterations") == "5" and attr(ti, "location").endswith("lstm_ti.xml:" + str(
        model.graph.layer(3).loc.line))
    assert any(kv.key.startswith("back_edge") for kv in ti.attrs)
    cell = next(n for n in body.nodes if n.label == "LSTMCell")
    assert attr(cell, "hidden_size") == "4"
    assert out_meta(cell, 6)["shape"] == "f32[1,4]"
    assert {(e.sourceNodeId, e.targetNodeInputId) for e in cell.incomingEdges} >= {("1", "1"), ("2", "2")}
    w = next(n for n in body.nodes if n.label == "Const" and "[16, 8]" in (attr(n, "value") or ""))
    layer = model.graph.layer(3).body.layer(int(w.id))
    data = model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), layer.outputs[0].precision,
                               (16, 8))
    assert f"{data.reshape(-1)[0]:.4g}"[:5] in attr(w, "value")
    h_prev = node(body, "h_prev")
    assert "initial value from outer input 1" in attr(h_prev, "port map")
    assert "from #11 h_next" in attr(h_prev, "back edge")


def test_v10_ports_without_precision_get_their_known_types() -> None:
    """OpenVINO's v10 TensorIterator test IR leaves precision off every input port and some outputs: the
    inputs take the feeding port's type, the outputs shape inference's, as in the diagram."""
    v10 = Path(__file__).resolve().parents[1] / "corpus" / "thirdparty" / "ti_lstm_v10.xml"
    model = irlint.load(v10)
    untyped = [p for _g, la in model.layers() for p in (*la.inputs, *la.outputs) if p.precision is None]
    assert untyped, "the fixture should have ports without precision"
    shapes = [kv.value for g in convert(model) for n in g.nodes for md in (*n.inputsMetadata, *n.outputsMetadata)
              for kv in md.attrs if kv.key == "shape"]
    # 33 ports of layers, and the body's four port-map nodes (three outer inputs, one output)
    assert len(shapes) == 37 and not [s for s in shapes if s.startswith("?")]
    assert "f32[1,25,512]" in shapes


def test_if_branches_are_subgraphs() -> None:
    model = irlint.load(EXAMPLES / "if_in_loop.xml")
    ids = by_id(convert(model))
    if_node = next(n for g in ids.values() for n in g.nodes if n.label == "If")
    assert [s.rsplit(" ", 1)[1] for s in if_node.subgraphIds] == ["then", "else"]
    assert all(ids[s].nodes for s in if_node.subgraphIds)


def test_name_scopes_become_namespaces(tmp_path: Path) -> None:
    pytest.importorskip("openvino")
    from tests.viewer.irs import bracket_names, save

    model = irlint.load(save(bracket_names(), tmp_path / "b.xml"))
    graphs = convert(model)
    body = graphs[1]
    assert node(body, "Net/LSTM[rnn]/x_t").namespace == "Net/LSTM[rnn]"
    assert node(graphs[0], "Net/input[x]").namespace == "Net"


def test_findings_on_nodes_with_colour_code_and_line() -> None:
    model = irlint.load(EXAMPLES / "broken" / "lstm_ti_broken.xml")
    diags = check_model(model)
    assert diags
    graphs = convert(model, diags)
    flagged = [n for g in graphs for n in g.nodes if attr(n, "finding 1")]
    assert flagged and all(n.style is not None and n.style.borderColor for n in flagged)
    text = attr(flagged[0], "finding 1")
    assert any(d.code in text and f":{d.loc.line})" in text for d in diags)
    data = findings_node_data(graphs, model, diags)
    values = [r.value for gd in data.graphsData.values() for r in gd.results.values()]
    assert values and max(values) == max(SEVERITY_VALUE[d.severity] for d in diags)
    assert set(SEVERITY_VALUE.values()) == {3, 2, 1}  # as docs/viewer.md says: 3 error, 2 warning, 1 info
    json.loads(data.to_json_string())


def test_trace_values_at_the_iteration(tmp_path: Path) -> None:
    values = traced(tmp_path, "lstm_ti")
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    graphs = convert(model, (), Trace.from_arrays(values, (3,)))
    body = graphs[1]
    h_prev = out_meta(node(body, "h_prev"), 0)["value at iteration 3"]
    expected = values["3/body/1@3:in"].reshape(-1)
    assert np.array2string(expected, precision=4) .split()[1] in h_prev
    # body-internal: the LSTMCell's h output carries what the h_next Result records
    cell = next(n for n in body.nodes if n.label == "LSTMCell")
    assert "value at iteration 3" in out_meta(cell, 6)
    other = convert(model, (), Trace.from_arrays(values, (0,)))[1]
    assert out_meta(node(other, "h_prev"), 0)["value at iteration 0"].endswith("[0. 0. 0. 0.]  min 0 max 0")
    data = trace_node_data(graphs, model, Trace.from_arrays(values, (3,)))
    body_data = data.graphsData[body.id].results
    assert body_data["1"].value == pytest.approx(float(np.abs(values["3/body/1@3:in"]).max()))


def test_adapter_loads_as_a_model_explorer_extension() -> None:
    from model_explorer.extension_manager import ExtensionManager

    manager = ExtensionManager(["irlint.viewer.explorer"])
    manager.load_extensions()
    meta = [m for m in manager.get_extensions_metadata() if m["id"] == "irlint_openvino_ir"]
    assert meta and meta[0]["fileExts"] == ["xml"]
    resp = manager.run_cmd({"extensionId": "irlint_openvino_ir", "cmdId": "convert",
                            "modelPath": str(EXAMPLES / "lstm_ti.xml"), "settings": {},
                            "deleteAfterConversion": False})
    assert resp["graphs"][0]["id"] == "lstm_ti"


def test_explore_refuses_bad_input(tmp_path: Path) -> None:
    r = cli("explore", str(tmp_path / "missing.xml"), "--no-open")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = cli("explore", str(EXAMPLES / "lstm_ti.xml"), "--iteration", "1", "--no-open")
    assert r.returncode == 2 and "--trace" in r.stderr
    values = traced(tmp_path, "lstm_ti")
    assert values
    r = cli("explore", str(EXAMPLES / "loop_scan.xml"), "--trace", str(tmp_path / "t.npz"), "--no-open")
    assert r.returncode == 2 and "another model" in r.stderr


def _get(url: str, data: bytes | None = None) -> bytes:
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as resp:
        return resp.read()


def test_explore_serves_the_model_with_findings() -> None:
    model = EXAMPLES / "broken" / "lstm_ti_broken.xml"
    with explore(model) as served:
        assert _get(served.base + "/check_health") == b"model_explorer_ok"
        cmd = {"extensionId": "irlint_openvino_ir", "cmdId": "convert", "modelPath": str(model), "settings": {},
               "deleteAfterConversion": False}
        graphs = json.loads(_get(served.base + "/apipost/v1/send_command", json.dumps(cmd).encode()))["graphs"]
        assert any(kv["key"] == "finding 1" for g in graphs for n in g["nodes"] for kv in n["attrs"])
        findings = json.loads(json.loads(_get(served.base + "/api/v1/load_node_data?node_data_index=0"))["content"])
        assert any(gd["results"] for gd in findings.values())


def test_keras_lstm_scopes_become_namespaces() -> None:
    """The Keras LSTM OpenVINO converted (scripts/make_keras_lstm.py): the cell's gates sit in the
    namespace of their scope inside the Loop body's graph."""
    model = irlint.load(Path(__file__).resolve().parent / "fixtures" / "keras_lstm.xml")
    graphs = convert(model, check_model(model))
    body = next(g for g in graphs if g.id.endswith(" body"))
    spaces = {n.namespace for n in body.nodes}
    assert "functional_1_1/lstm_1_1/while/lstm_cell_1" in spaces
    gates = [n for n in body.nodes if n.namespace.endswith("lstm_cell_1") and n.label == "Sigmoid"]
    assert len(gates) == 3


def test_one_node_data_run_per_iteration(tmp_path: Path) -> None:
    values = traced(tmp_path, "lstm_ti")
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    trace = Trace.from_arrays(values, (3,))
    graphs = convert(model, (), trace)
    runs = iteration_node_data(graphs, model, trace)
    assert [name for name, _ in runs] == [f"iteration {k}" for k in range(5)]
    body = graphs[1].id
    for name, data in runs:
        k = int(name.split()[1])
        assert data.graphsData[body].name == name
        # h_prev (body layer 1) at iteration k: what the trace holds for it
        expected = float(np.abs(values[f"3/body/1@{k}:in"]).max())
        assert data.graphsData[body].results["1"].value == pytest.approx(expected)
        json.loads(data.to_json_string())


def test_iterations_of_nested_loops_and_a_sampled_long_trace(tmp_path: Path) -> None:
    values = traced(tmp_path, "nested_loop_in_ti")
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    trace = Trace.from_arrays(values, (1,))
    assert [it.label for it in trace.iterations()] == [f"{k}.{m}" for k in range(3) for m in range(3)]
    graphs = convert(model, (), trace)
    names = [name for name, _ in iteration_node_data(graphs, model, trace)]
    # --iteration 1 names the outer iteration only (the inner loop's last): a run of its own, in order
    expected = [f"iteration {k}.{m}" for k in range(3) for m in range(3)]
    assert names == [*expected[:3], "iteration 1", *expected[3:]]
    inner = next(g.id for g in graphs if g.id.endswith(" #2/body/6 body"))  # the Loop's body inside the TI's
    runs = dict(iteration_node_data(graphs, model, trace))
    # the inner Loop's body Parameter 0 in iteration 2.1 (the If-free nesting: key 2.1)
    got = runs["iteration 2.1"].graphsData[inner].results["0"].value
    assert got == pytest.approx(float(np.abs(values["2/body/6/body/0@2.1:in"]).max()))
    # a limit below the count: first and last iterations and a stride, which every name states
    sampled = iteration_node_data(graphs, model, trace, limit=5)
    assert [n for n, _ in sampled] == [f"iteration {k} (5 of 9 sampled, stride 5)"
                                       for k in ("0.0", "0.1", "0.2", "1", "2.1", "2.2")]


def test_iteration_runs_bound_a_long_trace() -> None:
    its = [Iteration((k,), str(k)) for k in range(1000)]
    picked, stride = iteration_runs(its)
    labels = [it.label for it in picked]
    assert len(picked) <= RUN_LIMIT and stride > 1
    assert labels[:4] == ["0", "1", "2", "3"] and labels[-4:] == ["996", "997", "998", "999"]
    middle = [int(x) for x in labels[4:-4]]
    assert all(b - a == stride for a, b in itertools.pairwise(middle))
    assert iteration_runs(its[:RUN_LIMIT]) == (its[:RUN_LIMIT], 1)


def test_node_data_provider_shows_a_typed_iteration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The extension Model Explorer lists under "Add per-node data", run the way the UI runs it."""
    from irlint.viewer.explorer import main as adapter
    from model_explorer.extension_manager import ExtensionManager

    values = traced(tmp_path, "lstm_ti")
    manager = ExtensionManager(["irlint.viewer.explorer"])
    manager.load_extensions()
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    body = convert(model)[1].id

    def run(iteration: str) -> dict:  # type: ignore[type-arg]
        return manager.run_cmd({"extensionId": "irlint_trace_iteration", "cmdId": "run", "modelPath": str(model.path),
                                "graphId": body, "configValues": {"iteration": iteration}})

    saved = adapter.OPTIONS
    try:
        adapter.OPTIONS = adapter.Options(None, None)
        assert "no trace" in run("1")["error"]
        adapter.OPTIONS = adapter.Options(None, Trace.from_arrays(values, (3,)))
        editors = manager.run_cmd({"extensionId": "irlint_trace_iteration", "cmdId": "get_config_editors"})
        editor = editors["configEditors"][0]
        assert editor["defaultValue"] == "3" and editor["description"] == "recorded: 0 to 4, 5 in all"
        result = run("1")
        assert result["error"] == "" and result["result"]["name"] == "iteration 1 (typed)"
        assert result["result"]["results"]["1"]["value"] == pytest.approx(float(np.abs(values["3/body/1@1:in"]).max()))
        assert "does not record" in run("5")["error"]
        assert "expected K" in run("one")["error"]
        # `model-explorer --extensions=...` started by itself: the trace named by the environment
        adapter.OPTIONS = adapter.Options()
        monkeypatch.setenv("IRLINT_EXPLORE_TRACE", str(tmp_path / "t.npz"))
        result = run("2")
        assert result["result"]["results"]["1"]["value"] == pytest.approx(float(np.abs(values["3/body/1@2:in"]).max()))
    finally:
        adapter.OPTIONS = saved


def test_loop_context_labels_buffers_and_body_findings(tmp_path: Path) -> None:
    """Body Parameters and Results are labelled by name; the carried buffer is marked; a Const feeding
    a condition or trip count is labelled by its value (Model Explorer hides nodes labelled `Const`);
    a body's findings show on its TensorIterator in the parent graph, in the data too."""
    keras = irlint.load(Path(__file__).resolve().parent / "fixtures" / "keras_lstm.xml")
    graphs = convert(keras)
    body = graphs[1]
    params = [n for n in body.nodes if attr(n, "type") == "Parameter"]
    assert len(params) == 6 and len({n.label for n in params}) == 6 and "Parameter" not in {n.label for n in params}
    # shortened as the diagram's 24 characters, "..." for its "…" (the canvas draws "?" for a glyph it lacks)
    assert all(len(n.label) <= 24 + 2 * n.label.count("...") and n.label.isascii() for n in params), params
    # each back edge is an edge of the body graph, Result -> Parameter, on both ends' "back edge" port
    loop = next(la for la in keras.graph.layers if la.type == "Loop")
    for be in loop.back_edges:
        par = next(n for n in params if n.id == str(be.to_layer))
        assert any(e.sourceNodeId == str(be.from_layer) and e.sourceNodeOutputId == e.targetNodeInputId == "back edge"
                   for e in par.incomingEdges)
        res = next(n for n in body.nodes if n.id == str(be.from_layer))
        assert any(m.id == "back edge" for m in res.outputsMetadata)
    buffers = [n for n in params if attr(n, "buffer")]
    assert [attr(n, "buffer") for n in buffers] == ["one-slot buffer [axis 0, index 0]: every iteration overwrites it"]
    assert buffers[0].style is not None and buffers[0].style.backgroundColor == "#cdeef0"  # filled as in the diagram
    assert all(n.style is None for n in params if n not in buffers)

    from tests.viewer import irs

    loop_model = irlint.load(irs.save(irs.counting_loop(3), tmp_path / "count.xml"))
    graphs = convert(loop_model)
    labels = {n.label for g in graphs for n in g.nodes if attr(n, "type") == "Const"}
    assert {"Const = 3", "Const = True"} <= labels

    broken = irlint.load(EXAMPLES / "broken" / "lstm_ti_broken.xml")
    diags = check_model(broken)
    graphs = convert(broken, diags)
    ti = next(n for n in graphs[0].nodes if attr(n, "type") == "TensorIterator")
    in_body = [d for d in diags if d.layer is not None and d.layer.startswith("3/body/")]
    assert in_body and attr(ti, "findings in its bodies").startswith(f"{len(in_body)}, worst: ")
    assert ti.style is not None and ti.style.borderColor
    data = findings_node_data(graphs, broken, diags)
    worst = max(SEVERITY_VALUE[d.severity] for d in in_body)
    assert data.graphsData[graphs[0].id].results[ti.id].value >= worst


def test_top_level_parameters_and_results_show_values_from_the_loop() -> None:
    """A trace records body layers only; the top-level Parameters a TensorIterator takes whole (initial
    values) and the Results it feeds (last value, concatenated parts) show the values the run had."""
    from irlint.viewer.diagram.describe import preview

    from irlint.interp import run
    from irlint.interp.trace import Trace as Recorder

    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz"))
    recorder = Recorder()
    outputs = run(model, inputs, listener=recorder)
    graphs = convert(model, (), Trace.from_arrays(recorder.values, (2,)))
    main = graphs[0]
    assert out_meta(node(main, "H0"), 0)["value"] == preview(inputs["H0"])
    assert out_meta(node(main, "C0"), 0)["value"] == preview(inputs["C0"])
    assert "value" not in out_meta(node(main, "X"), 0)  # sliced: no body Parameter holds it whole
    for name in ("Y", "H", "C"):  # Y concatenates every iteration's part, H and C are last values
        assert attr(node(main, name), "value") == preview(outputs[name]), name


def test_port_map_entries_are_edges_of_the_body_graph() -> None:
    """Model Explorer draws no edge between graphs: each outer port of a TI/Loop/If is a node of the body
    graph (`outer in 0: X`), with an edge into the body Parameter it feeds or from the Result giving it."""
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    body = convert(model)[1]
    nodes = {n.id: n for n in body.nodes}
    ti = model.graph.layer(3)
    assert ti is not None and ti.body is not None
    for e in ti.port_map:
        inner = ti.body.layer(e.internal_layer_id)
        assert inner is not None
        port = nodes[f"outer {e.direction} {e.external_port_id}"]
        if e.direction == "input":
            target = nodes[str(inner.id)]
            assert any(x.sourceNodeId == port.id and x.targetNodeInputId == "port map" for x in target.incomingEdges)
            assert any(m.id == "port map" for m in target.inputsMetadata)
        else:
            assert [(x.sourceNodeId, x.sourceNodeOutputId) for x in port.incomingEdges] == [(str(inner.id), "port map")]
    x = nodes["outer input 0"]
    assert x.label == "outer in 0: X" and attr(x, "port map").startswith("sliced from outer input 0: axis 1: 5 slices")
    assert out_meta(x, 0)["shape"] == "f32[1,5,8]"
    assert attr(nodes["outer output 4"], "port map") == "last value: outer output 4"
    # an If's branches: each its own outer inputs and output
    branches = convert(irlint.load(EXAMPLES / "if_in_loop.xml"))[2:]
    assert [sorted(n.id for n in g.nodes if n.id.startswith("outer")) for g in branches] == [
        ["outer input 1", "outer input 2", "outer output 3"],
        ["outer input 2", "outer output 3"],
    ]


def test_explore_asks_no_one_for_model_explorers_latest_release(monkeypatch: pytest.MonkeyPatch) -> None:
    """Model Explorer's release check (a request to PyPI without a timeout, in a thread the process waits
    for at its end) answers "nothing newer" without the network under `irlint explore`."""
    import requests
    from irlint.viewer.explore_cmd import offline
    from model_explorer import server

    asked: list[str] = []
    monkeypatch.setattr(requests, "get", lambda url, *a, **k: asked.append(url) or (_ for _ in ()).throw(OSError()))
    monkeypatch.setattr(server, "_check_new_version", server._check_new_version)  # (restored after the test)
    server._check_new_version(False)
    assert asked  # the check as Model Explorer ships it goes to the network
    asked.clear()
    offline()
    assert server._check_new_version(False)["version"] == "" and server._check_new_version()["releaseUrl"] == ""
    assert not asked
