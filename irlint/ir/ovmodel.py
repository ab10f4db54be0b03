"""An `openvino.Model` in memory (from `ov.convert_model`, or built with OpenVINO's Python API) as a `Model`.

OpenVINO's Python API serialises a model only to file paths that end in `.xml` (`openvino.serialize`;
there is no stream or bytes form), so the model is written into a fresh temporary directory, both
files are read back into memory and the directory is removed before anything else happens, whatever
fails. Nothing is written beside the user's files, and the `Model` keeps no file open: its locations
and its weights are read from the bytes in memory.

The model's path is a label, `<openvino.Model 'name'>`, so every diagnostic says that its line and
column are those of the serialised XML (`serialized_xml` gives that text) and names the layer by its
friendly name, which the serialiser writes as the layer's name.

openvino is never imported here: an `openvino.Model` is recognised by its class's module and name
(`is_openvino_model`), and the `serialize` function is taken from the module that defined that class,
which the caller has imported already.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

from irlint.ir.loader import MAX_XML_BYTES, LoadError, parse_bytes
from irlint.ir.model import Model
from irlint.ir.weights import Weights

__all__ = ["is_openvino_model", "label", "load_openvino_model", "serialized_xml"]


def is_openvino_model(obj: object) -> bool:
    """Whether `obj` is an `openvino.Model` (its wrapper class or the pybind11 one), without importing openvino."""
    for cls in type(obj).__mro__:
        module = getattr(cls, "__module__", "") or ""
        if cls.__name__ == "Model" and (module == "openvino" or module.startswith("openvino.")):
            return True
    return False


def label(obj: Any) -> str:
    """`<openvino.Model 'name'>`: the path diagnostics show for a model that has no file."""
    try:
        name = str(obj.get_friendly_name())
    except Exception:  # a model object we cannot ask: still a usable label
        name = "?"
    return f"<openvino.Model {name!r}>"


def _serialize(obj: Any) -> tuple[bytes, bytes]:
    """The IR (XML, weights) of an openvino.Model, through a temporary directory that is always removed."""
    ov = sys.modules.get("openvino")
    serialize = getattr(ov, "serialize", None)
    if serialize is None:
        raise LoadError(f"{label(obj)}: openvino.serialize is not available (is openvino imported?)")
    with tempfile.TemporaryDirectory(prefix="irlint-ov-") as tmp:
        xml, bin_ = os.path.join(tmp, "model.xml"), os.path.join(tmp, "model.bin")
        try:
            serialize(obj, xml, bin_)
        except Exception as e:  # OpenVINO refuses the model (RuntimeError with its check message)
            raise LoadError(f"{label(obj)}: openvino could not serialise it: {str(e).strip()}") from e
        size = os.path.getsize(xml)
        if size > MAX_XML_BYTES:
            raise LoadError(
                f"{label(obj)}: its XML is {size} bytes, larger than the {MAX_XML_BYTES // 1024**2} MiB irlint parses"
            )
        with open(xml, "rb") as f:
            xml_data = f.read()
        with open(bin_, "rb") as f:
            bin_data = f.read()
    return xml_data, bin_data


def load_openvino_model(obj: Any) -> Model:
    """The `Model` of an `openvino.Model`; `LoadError` if OpenVINO cannot serialise it."""
    xml, weights = _serialize(obj)
    name = label(obj)
    return parse_bytes(xml, name, Weights.in_memory(f"{name} weights", weights))


def serialized_xml(model: Model) -> str | None:
    """The XML a model read from an `openvino.Model` was parsed from (what its locations point into),
    or None for a model read from a file."""
    if not model.path.startswith("<openvino.Model "):
        return None
    data = model.src.read(0, 1 << 62)
    return data.decode("utf-8", "replace")
