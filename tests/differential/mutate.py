"""XML mutations of a saved control-flow model, in the manner of OpenVINO's IR reader tests: one
attribute of a port_map entry, back edge, port or layer dropped or altered."""

from __future__ import annotations

import random
from dataclasses import dataclass

from lxml import etree

PORT_MAP_ATTRS = ("axis", "start", "end", "stride", "part_size", "external_port_id", "internal_layer_id", "purpose")
EDGE_ATTRS = ("from-layer", "from-port", "to-layer", "to-port")
PRECISIONS = ("FP32", "FP16", "I32", "I64", "U8", "BOOL", "FP64", "I8")


@dataclass
class Mutation:
    what: str  # a human description: element, attribute, old -> new
    xml: bytes


def _path(el: etree._Element) -> str:
    parts = []
    while el is not None and el.tag != "net":
        ident = el.get("id") or el.get("external_port_id") or el.get("from-layer")
        parts.append(f"{el.tag}[{ident}]" if ident is not None else el.tag)
        el = el.getparent()
    return "/".join(reversed(parts))


def _new_int(r: random.Random, old: str | None, attr: str) -> str:
    base = int(old) if old is not None and old.lstrip("-").isdigit() else 0
    if attr in ("start", "end", "stride") and r.random() < 0.4:
        return r.choice(["-1", "0", "1", "2", "-2"])
    if attr == "part_size" and r.random() < 0.5:
        return r.choice(["0", "2", "3"])
    return str(base + r.choice([-2, -1, 1, 2, 5]))


def mutate(xml: bytes, seed: int) -> Mutation | None:
    """One random mutation of `xml`, or None when the model has nothing of the kind chosen."""
    r = random.Random(seed)
    root = etree.fromstring(xml)
    kind = r.choice(["drop", "alter", "alter", "alter", "dim", "precision", "edge"])
    if kind in ("drop", "alter"):
        pool = root.xpath(".//*[self::port_map or self::then_port_map or self::else_port_map]/*") + root.findall(
            ".//back_edges/edge")
        if not pool:
            return None
        el = r.choice(pool)
        attrs = [a for a in el.attrib if a in PORT_MAP_ATTRS + EDGE_ATTRS]
        if kind == "alter" and el.tag != "edge":
            attrs += [a for a in ("axis", "start", "end", "stride", "part_size") if a not in el.attrib]
        if not attrs:
            return None
        attr = r.choice(attrs)
        old = el.get(attr)
        if kind == "drop":
            if old is None:
                return None
            del el.attrib[attr]
            what = f"drop {attr}={old!r} of {_path(el)}"
        else:
            new = _new_int(r, old, attr) if attr != "purpose" else r.choice(["current_iteration",
                                                                            "execution_condition", "unknown"])
            if attr in ("start", "end", "stride", "part_size") and "axis" not in el.attrib:
                el.set("axis", "0")
            el.set(attr, new)
            what = f"{attr} {old!r} -> {new!r} in {_path(el)}"
    elif kind == "dim":
        dims = root.findall(".//port/dim")
        if not dims:
            return None
        el = r.choice(dims)
        old = el.text
        roll = r.random()
        if roll < 0.2:
            el.getparent().remove(el)
            what = f"remove dim {old} of {_path(el.getparent() if el.getparent() is not None else root)}"
        elif roll < 0.35:
            el.text = "-1"
            what = f"dim {old} -> -1"
        else:
            el.text = str(max(0, int(old) + r.choice([-1, 1, 2])) if old and old.lstrip("-").isdigit() else 1)
            what = f"dim {old} -> {el.text}"
        what += f" in {_path(el)}"
    elif kind == "precision":
        ports = [p for p in root.findall(".//port") if p.get("precision")]
        datas = [d for d in root.findall(".//layer[@type='Parameter']/data") if d.get("element_type")]
        if not ports:
            return None
        if datas and r.random() < 0.3:
            el = r.choice(datas)
            old = el.get("element_type")
            new = r.choice(["f32", "f16", "i32", "i64", "u8", "boolean"])
            el.set("element_type", new)
            what = f"Parameter element_type {old} -> {new} in {_path(el)}"
        else:
            el = r.choice(ports)
            old = el.get("precision")
            new = r.choice([p for p in PRECISIONS if p != old])
            el.set("precision", new)
            what = f"precision {old} -> {new} of {_path(el)}"
    else:
        edges = root.findall(".//edges/edge")
        if not edges:
            return None
        el = r.choice(edges)
        attr = r.choice(EDGE_ATTRS)
        old = el.get(attr)
        new = _new_int(r, old, attr)
        el.set(attr, new)
        what = f"edge {attr} {old} -> {new} in {_path(el)}"
    return Mutation(what, etree.tostring(root, xml_declaration=True, encoding="utf-8"))
