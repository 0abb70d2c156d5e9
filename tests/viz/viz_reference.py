"""The real IREE's reference IR for the view tests, as files and as a stand-in compile trace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ireelab.compiler.trace import PassRecord, Trace

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "iree-3.13-ir"
if not REFERENCE.exists():
    REFERENCE = Path("/work/shared/reference/iree-3.13-ir")
GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("IREELAB_UPDATE_GOLDEN") == "1"


def reference(name: str) -> Path:
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"reference IR {name} not found")
    return path


def reference_trace(program: str) -> Trace:
    """A trace standing in for a compile: input, the Flow IR and the Stream IR IREE printed."""
    flow = reference(f"{program}.flow.mlir").read_text()
    stream = reference(f"{program}.stream.mlir").read_text()
    records = [
        PassRecord(
            0,
            "flow",
            "OutlineDispatchRegionsPass",
            "iree-flow-outline-dispatch-regions",
            flow,
            True,
            0.01,
        ),
        PassRecord(1, "flow", "CSEPass", "cse", flow, False, 0.001),
        PassRecord(
            2, "stream", "ConvertToStreamPass", "iree-stream-conversion", stream, True, 0.02
        ),
        PassRecord(3, "stream", "CanonicalizerPass", "canonicalize", stream, False, 0.002),
    ]
    return Trace(input_ir=flow, records=records)


def check_golden(name: str, text: str) -> None:
    """Compare `text` with tests/viz/golden/NAME (IREELAB_UPDATE_GOLDEN=1 rewrites it)."""
    path = GOLDEN / name
    if UPDATE or not path.exists():
        path.write_text(text)
        if not UPDATE:
            pytest.fail(f"golden file {name} was missing and has been written; rerun")
    assert text == path.read_text(), f"DOT differs from golden {name}"


def program_trace(program: str) -> Trace:
    """`reference_trace` with the program's own source as the compile input."""
    trace = reference_trace(program)
    trace.input_ir = reference(f"../programs/{program}.mlir").read_text()
    return trace
