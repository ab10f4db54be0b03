"""What OpenVINO does with an op attribute that is missing from `<data>`: refuse or fill a default.

    .venv/bin/python scripts/attribute_defaults.py --report build/attribute_defaults.json

For every op irlint has semantics for and every attribute irlint's op declares without a default
(tests/ and docs call these required), the script finds a layer of that op in an IR OpenVINO wrote
(the ONNX node test cases converted with `openvino.convert_model`, plus the IRs under tests/ and
examples/), deletes the attribute from that layer's `<data>`, and asks OpenVINO in a child process
(one for all models, started again after a crash): `read_model`, the value the read op reports for the
attribute (`get_attributes()`: the default OpenVINO filled), then `compile_model` on the CPU plugin.
The report lists, per op and attribute: "read" (refused at read, with the message), "compile"
(read, refused at compile) or "filled" (read and compiled, with the value filled), or "no IR" when
no IR holds the op. docs/rules-openvino.md quotes the table; irlint/ops/openvino_fills.py lists the
filled values irlint binds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import sys
import tempfile
from pathlib import Path
from typing import Any

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]


def required_attributes() -> dict[tuple[str, str], list[str]]:
    """(type, opset of irlint's op) -> the attributes irlint's op requires."""
    from irlint.ops import registry

    registry._load_all()
    out: dict[tuple[str, str], list[str]] = {}
    for t, ops in registry._BY_TYPE.items():
        for op in ops:
            attrs = getattr(op, "Attrs", None)
            if attrs is None or not dataclasses.is_dataclass(attrs):
                continue
            req = [f.metadata.get("ir", f.name) for f in dataclasses.fields(attrs)
                   if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
            if req:
                out[(t, ",".join(op.versions))] = req
    return out


# ONNX node test cases whose conversion holds the ops measured (prefixes of the case names): converting
# all of them takes minutes
ONNX_CASES = ("test_conv", "test_averagepool", "test_maxpool", "test_batchnorm", "test_clip", "test_concat",
              "test_cast_FLOAT_to", "test_depthtospace", "test_spacetodepth", "test_einsum", "test_elu", "test_eyelike",
              "test_gru", "test_lstm", "test_rnn", "test_lrn", "test_mvn", "test_range", "test_reshape",
              "test_split", "test_slice", "test_topk", "test_resize", "test_group_normalization", "test_roialign",
              "test_instancenorm",
              "test_basic_convinteger", "test_deform_conv", "test_quantizelinear", "test_lppool",
              "test_reversesequence", "test_randomuniform", "test_multinomial", "test_gridsample", "test_constant")


def _onnx_irs(dest: Path) -> list[Path]:
    """The ONNX node test cases that OpenVINO converts, saved as IRs."""
    import onnx
    import openvino as ov
    from onnx.backend.test.case.node import collect_testcases

    paths = []
    for i, case in enumerate(collect_testcases(None)):
        if not case.name.startswith(ONNX_CASES) or case.name.endswith("_expanded"):
            continue
        src = dest / f"c{i}.onnx"
        try:
            onnx.save(case.model, str(src))
            model = ov.convert_model(str(src))
            xml = dest / f"c{i}.xml"
            ov.save_model(model, str(xml), compress_to_fp16=False)
            paths.append(xml)
        except Exception:  # a case OpenVINO cannot convert holds no layer for us
            continue
    return paths


def _find_layers(xmls: list[Path], wanted: dict[tuple[str, str], list[str]]) -> dict[tuple[str, str, str], tuple]:
    """(type, versions, attribute) -> (xml, layer id) of a layer of that op whose <data> has the attribute."""
    from irlint.ops import registry

    found: dict[tuple[str, str, str], tuple] = {}
    for xml in xmls:
        try:
            root = etree.parse(str(xml)).getroot()
        except Exception:
            continue
        if root.find("body") is not None:
            continue
        for layer in root.findall("./layers/layer"):
            op = registry.lookup(layer.get("type", ""), layer.get("version", ""))
            if op is None:
                continue
            key = (layer.get("type"), ",".join(op.versions))
            data = layer.find("data")
            for attr in wanted.get(key, ()):
                if data is not None and attr in data.attrib and (*key, attr) not in found:
                    found[(*key, attr)] = (xml, layer.get("id"), layer.get("name"), data.get(attr))
    return found


def _serve(conn: Any) -> None:
    """The child: read (xml, layer name, attribute) requests until None; answer each with a verdict."""
    import openvino as ov

    core = ov.Core()
    while (req := conn.recv()) is not None:
        xml, name, attr = req
        try:
            model = core.read_model(xml)
        except Exception as e:
            conn.send(("read", str(e).strip().splitlines()[-1][:200], None))
            continue
        value = None
        for node in model.get_ops():
            if node.get_friendly_name() == name:
                value = _plain(node.get_attributes().get(attr))
        try:
            core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        except Exception as e:
            conn.send(("compile", str(e).strip().splitlines()[-1][:200], value))
            continue
        conn.send(("filled", "", value))


def _plain(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    try:
        return list(v)
    except TypeError:
        return str(v)


class Worker:
    """One OpenVINO child process for all requests, started again after a crash (a refusal may be one)."""

    def __init__(self) -> None:
        self.proc: Any = None

    def ask(self, xml: str, name: str, attr: str) -> tuple[str, str, Any]:
        ctx = multiprocessing.get_context("spawn")
        if self.proc is None or not self.proc.is_alive():
            self.conn, child = ctx.Pipe()
            self.proc = ctx.Process(target=_serve, args=(child,))
            self.proc.start()
        self.conn.send((xml, name, attr))
        if not self.conn.poll(300):
            self.proc.kill()
            self.proc.join()
            return "timeout", "", None
        try:
            return self.conn.recv()
        except EOFError:
            self.proc.join()
            return "crash", f"exit code {self.proc.exitcode}", None

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(30)


def measure(xml: Path, layer_id: str, name: str, attr: str, work: Path, worker: Worker) -> dict[str, Any]:
    root = etree.parse(str(xml)).getroot()
    layer = root.find(f"./layers/layer[@id='{layer_id}']")
    del layer.find("data").attrib[attr]
    out = work / f"{layer.get('type')}-{attr}.xml"
    out.write_bytes(etree.tostring(root, xml_declaration=True, encoding="utf-8"))
    if xml.with_suffix(".bin").exists():
        out.with_suffix(".bin").write_bytes(xml.with_suffix(".bin").read_bytes())
    verdict, why, value = worker.ask(str(out), name, attr)
    return {"verdict": verdict, "why": why, "value": value}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", required=True, type=Path)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    wanted = required_attributes()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "onnx").mkdir()
        xmls = [*_onnx_irs(t / "onnx"), *sorted((ROOT / "tests").rglob("*.xml")),
                *sorted((ROOT / "examples").rglob("*.xml"))]
        found = _find_layers(xmls, wanted)
        (t / "work").mkdir()
        worker = Worker()
        for (typ, versions), attrs in sorted(wanted.items()):
            for attr in attrs:
                hit = found.get((typ, versions, attr))
                if hit is None:
                    rows.append({"op": typ, "versions": versions, "attribute": attr, "verdict": "no IR"})
                    continue
                xml, lid, name, written = hit
                r = measure(xml, lid, name, attr, t / "work", worker)
                rows.append({"op": typ, "versions": versions, "attribute": attr, "written": written, **r})
                print(f"{typ} {versions} {attr}: {r['verdict']} {r['value']!r} {r['why'][:80]}", flush=True)
        worker.close()
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
