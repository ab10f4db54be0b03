"""Which output port of a TensorIterator, Loop or If each `<output>` port_map entry gives.

The spec names the port by the entry's `external_port_id`. OpenVINO's IR reader never looks that id
up among the layer's ports (src/frontends/ir/src/ir_deserializer.cpp,
`XmlDeserializer::parse_output_description`, shared by TensorIterator, Loop and both If branches): it
orders the entries with a non-negative id by that id (of equal ids it keeps the first) and gives the
k-th the layer's k-th output. Where the ids are the layer's output port ids, listed in ascending
order, both readings agree; where an id names no port (0 where the If's output is port 1), the spec
has no reading and OpenVINO runs the model by order. irlint runs such a model as OpenVINO does
(`output_ports`); `remapped` lists the entries where the two readings differ, for the rules and
the run's warning. Where the ids name ports listed out of their order, the spec decides and
`listed_out_of_order` says where OpenVINO's order gives other ports.
"""

from __future__ import annotations

from collections.abc import Iterable

from irlint.ir.model import Layer, PortMapEntry


def output_ports(layer: Layer, entries: Iterable[PortMapEntry]) -> dict[PortMapEntry, int | None]:
    """Each `<output>` entry with a non-negative `external_port_id` -> the output port it gives (None: none):
    its id where every such id names an output port, else the port OpenVINO gives it by order."""
    ids = {p.id for p in layer.outputs}
    mapped = [
        e for e in entries if e.direction == "output" and e.external_port_id is not None and e.external_port_id >= 0
    ]
    if all(e.external_port_id in ids for e in mapped):
        return {e: e.external_port_id for e in mapped}
    return ports_by_order(layer, mapped)


def ports_by_order(layer: Layer, entries: Iterable[PortMapEntry]) -> dict[PortMapEntry, int | None]:
    """OpenVINO's reading: each `<output>` entry with a non-negative `external_port_id` -> the output port
    at its rank among those ids (None: the entry repeats an earlier id, or the layer has too few outputs)."""
    seen: dict[int, PortMapEntry] = {}
    dropped: list[PortMapEntry] = []
    for e in entries:
        if e.direction != "output" or e.external_port_id is None or e.external_port_id < 0:
            continue
        if e.external_port_id in seen:
            dropped.append(e)
        else:
            seen[e.external_port_id] = e
    ports = [p.id for p in layer.outputs]
    out: dict[PortMapEntry, int | None] = {
        e: ports[k] if k < len(ports) else None for k, (_id, e) in enumerate(sorted(seen.items()))
    }
    out.update(dict.fromkeys(dropped))
    return out


def remapped(layer: Layer, entries: Iterable[PortMapEntry]) -> list[tuple[PortMapEntry, int]]:
    """The entries given another output port than the one their id names (which is then no port of the
    layer, or a port another entry takes), with that port."""
    return [(e, p) for e, p in output_ports(layer, entries).items() if p is not None and p != e.external_port_id]


def listed_out_of_order(layer: Layer, entries: Iterable[PortMapEntry]) -> list[tuple[PortMapEntry, int]]:
    """Where every id names an output port: the entries OpenVINO gives another port, because the layer lists
    its output ports out of the order of their ids (the k-th id gets the k-th port listed), with that port."""
    mapped = [
        e for e in entries if e.direction == "output" and e.external_port_id is not None and e.external_port_id >= 0
    ]
    ids = {p.id for p in layer.outputs}
    if not all(e.external_port_id in ids for e in mapped):
        return []
    return [(e, p) for e, p in ports_by_order(layer, mapped).items() if p is not None and p != e.external_port_id]


def entry_of_port(layer: Layer, entries: Iterable[PortMapEntry]) -> dict[int | None, PortMapEntry]:
    """Output port id -> the entry that gives it (the first, where the ids name ports and repeat one)."""
    out: dict[int | None, PortMapEntry] = {}
    for e, p in output_ports(layer, entries).items():
        if p is not None:
            out.setdefault(p, e)
    return out


def order_departure(layer: Layer, entries: Iterable[PortMapEntry], where: str) -> str:
    """What a run says where it gives `entries` (of `where`, the layer or one of its branches) their outputs by
    OpenVINO's order and the spec gives none, or gives the spec's ports where OpenVINO's order differs; ""
    where the readings agree."""
    entries = list(entries)
    moved = remapped(layer, entries)
    if not moved:
        unlisted = listed_out_of_order(layer, entries)
        if not unlisted:
            return ""
        how = ", ".join(f"external_port_id {e.external_port_id} -> port {p}" for e, p in unlisted)
        return (
            f"{where}: each <output> entry gives the port its external_port_id names, as the spec says; the "
            f"output ports are listed out of the order of their ids, and OpenVINO's IR reader gives the k-th id "
            f"the k-th port listed ({how}), so its outputs are others"
        )
    how = ", ".join(f"external_port_id {e.external_port_id} -> port {p}" for e, p in moved)
    return (
        f"{where}: an <output> entry's external_port_id names no output port, so the spec gives the "
        f"{layer.type} no output there; OpenVINO's IR reader gives the entries its outputs in the order of "
        f"their ids ({how}) and runs it, and so does this run"
    )
