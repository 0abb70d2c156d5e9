"""Differential test: ireelab's flow stage against the real IREE 3.13 (`--compile-to=flow`) on
the reference programs and on programs of our own: the same dispatch sites and export names
(after deduplication), in the same order. Skips cleanly without `iree-compile`."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from flow_helpers import FLOW_PASSES, run
from reference_paths import REFERENCE

from ireelab.dialects import flow

HERE = Path(__file__).parent
REFERENCE_PROGRAMS = REFERENCE / "programs"
PROGRAMS = sorted(HERE.glob("programs/*.mlir")) + sorted(REFERENCE_PROGRAMS.glob("*.mlir"))

pytestmark = [
    pytest.mark.iree,
    pytest.mark.skipif(
        shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
    ),
]


def iree_flow(path: Path) -> tuple[int, list[str]]:
    out = subprocess.run(
        ["iree-compile", "--iree-hal-target-backends=llvm-cpu", "--compile-to=flow", str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    sites = len(re.findall(r"= flow\.dispatch @", out)) + len(
        re.findall(r"^\s*flow\.dispatch @", out, re.M)
    )
    exports = re.findall(r"flow\.executable\.export public @(\w+)", out)
    return sites, exports


def ireelab_flow(path: Path) -> tuple[int, list[str]]:
    module = run(path.read_text(), FLOW_PASSES)
    sites = sum(isinstance(o, flow.DispatchOp) for o in module.walk())
    exports = [o.sym_name.data for o in module.walk() if isinstance(o, flow.ExecutableExportOp)]
    return sites, exports


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_same_dispatches_as_iree(path: Path) -> None:
    assert ireelab_flow(path) == iree_flow(path)
