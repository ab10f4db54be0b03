"""What `dot` drew, read from its SVG: the drawing's size in pixels and the edges as polylines, to
check sizes and crossings on real renders."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from xml.etree import ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
SAMPLES = 24  # points per cubic Bézier segment


def svg_of(dot_source: str) -> str:
    return subprocess.run(
        ["dot", "-Tsvg"], input=dot_source, capture_output=True, text=True, timeout=300, check=True
    ).stdout


def size_px(svg: str) -> tuple[float, float]:
    """Width and height at 96 dpi (dot writes points)."""
    m = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert m is not None
    return float(m[1]) * 96 / 72, float(m[2]) * 96 / 72


@dataclass
class Edge:
    tail: str
    head: str
    colour: str
    points: list[tuple[float, float]]


def _bezier(d: str) -> list[tuple[float, float]]:
    nums = [float(x) for x in re.findall(r"-?[\d.]+(?:e-?\d+)?", d)]
    pts = list(zip(nums[0::2], nums[1::2]))
    out = [pts[0]]
    for i in range(1, len(pts) - 2, 3):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for k in range(1, SAMPLES + 1):
            t = k / SAMPLES
            a, b, c, e = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t**3
            out.append((a * p0[0] + b * p1[0] + c * p2[0] + e * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + e * p3[1]))
    return out


def edges(svg: str) -> list[Edge]:
    """Every drawn edge: its end nodes (the DOT names, ports dropped), stroke colour and path."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "edge":
            continue
        title = g.find(f"{SVG}title")
        path = g.find(f"{SVG}path")
        if title is None or path is None or title.text is None:
            continue
        tail, _, head = title.text.partition("->")
        out.append(Edge(tail.split(":")[0], head.split(":")[0], path.get("stroke", ""), _bezier(path.get("d", ""))))
    return out


def _cross(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    def orient(a, b, c):  # type: ignore[no-untyped-def]
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return 0 if abs(v) < 1e-9 else (1 if v > 0 else -1)

    return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0


def crossings(a: Edge, b: Edge) -> int:
    """How many times two edges' paths cross (not counting where they share an end node)."""
    if {a.tail, a.head} & {b.tail, b.head}:
        return 0
    n = 0
    for p, q in zip(a.points, a.points[1:]):
        for r, s in zip(b.points, b.points[1:]):
            n += _cross(p, q, r, s)
    return n
