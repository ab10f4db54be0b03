"""Which layer `version`s OpenVINO's IR reader resolves to an opset.

The reader looks the `version` up among the opsets it knows (`opset1` ... `opset17` in openvino
2026.4) and refuses any other name ("Cannot create ... from unsupported opset"). Two legacy names
are accepted for a few types only: `experimental` and `extension` are read as opset6 for the ops
that moved there from the experimental set. tests/ir/test_reader_verdicts.py checks the numbers
against the installed openvino.
"""

from __future__ import annotations

LAST_OPSET = 17  # the newest opset openvino 2026.4 reads (opset17 holds only a few ops)
KNOWN_OPSETS = frozenset(f"opset{n}" for n in range(1, LAST_OPSET + 1))
LEGACY_VERSIONS = frozenset({"experimental", "extension"})
LEGACY_TYPES = frozenset({
    "ExperimentalDetectronDetectionOutput", "ExperimentalDetectronGenerateProposalsSingleImage",
    "ExperimentalDetectronPriorGridGenerator", "ExperimentalDetectronROIFeatureExtractor",
    "ExperimentalDetectronTopKROIs", "GRUCell", "RNNCell", "Proposal",
})


def names_an_opset(layer_type: str, version: str) -> bool:
    """True when OpenVINO's reader finds an opset for a layer of this type and version."""
    return version in KNOWN_OPSETS or (version in LEGACY_VERSIONS and layer_type in LEGACY_TYPES)
