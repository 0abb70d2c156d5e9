"""The 13 reference programs partition exactly as IREE 3.13 does (`iree-3.13.json`): the same
dispatch sites, executables after deduplication, export names and ops fused per dispatch."""

from __future__ import annotations

import json

import pytest
from flow_helpers import FLOW_PASSES, run
from reference_paths import REFERENCE
from xdsl.dialects.builtin import ModuleOp

from ireelab.dialects import flow

RECORD = REFERENCE / "iree-3.13.json"
PROGRAMS = json.loads(RECORD.read_text())["programs"] if RECORD.exists() else {}


def summarize(module: ModuleOp) -> dict:
    """What the JSON records, read off a module at the end of the flow stage."""
    executables = [o for o in module.body.block.ops if isinstance(o, flow.ExecutableOp)]
    contents = {}
    exports = []
    for exe in executables:
        block = exe.body.block
        exports += [o.sym_name.data for o in block.ops if isinstance(o, flow.ExecutableExportOp)]
        inner = next(o for o in block.ops if isinstance(o, ModuleOp))
        (fn,) = inner.body.block.ops
        contents[exe.sym_name.data] = [
            o.name for o in fn.body.block.ops if o.name.startswith("linalg.")
        ]
    return {
        "dispatch_sites": sum(isinstance(o, flow.DispatchOp) for o in module.walk()),
        "executables": len(executables),
        "exports": exports,
        "dispatch_contents": contents,
    }


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_partition_matches_iree(name: str) -> None:
    text = (REFERENCE / "programs" / f"{name}.mlir").read_text()
    got = summarize(run(text, FLOW_PASSES))
    want = {k: PROGRAMS[name][k] for k in got}
    assert got == want


def test_abi_phase_input() -> None:
    # The stage's real input: a util.func on buffer views with hal.tensor.import/export.
    path = REFERENCE / "iree-3.13-ir" / "a0_matmul_tiny.abi.mlir"
    if not path.exists():
        pytest.skip("reference IR not present")
    module = run(path.read_text(), FLOW_PASSES)
    text = str(module)
    assert "flow.dispatch @matmul_dispatch_0::@matmul_dispatch_0_matmul_2x2x4_f32(%0, %1)" in text
    assert "hal.tensor.export" in text
    assert summarize(module)["dispatch_contents"] == {
        "matmul_dispatch_0": ["linalg.fill", "linalg.matmul"]
    }
