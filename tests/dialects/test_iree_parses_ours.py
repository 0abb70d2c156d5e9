"""What `ireelab-compile --compile-to=...` prints, the real `iree-opt` (IREE 3.13) parses.

The dialect tests check that ireelab re-prints IREE's reference IR in a form IREE accepts; this
checks ireelab's own output: the Flow phase of every reference program, and every textual phase
of the founding note's matmul. It holds ireelab's syntax to IREE's, op by op, as the passes
really produce it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from reference_paths import REFERENCE

from ireelab.compiler.pipeline import PHASES
from ireelab.tools.compile import main as ireelab_compile

PROGRAMS = sorted((REFERENCE / "programs").glob("*.mlir"))
SEED_MATMUL = REFERENCE / "programs/a0_matmul_tiny.mlir"

pytestmark = [
    pytest.mark.iree,
    pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs the real IREE"),
]


def _compile_and_read_in_iree(program: Path, phase: str, tmp_path: Path) -> str:
    out = tmp_path / f"{program.stem}.{phase}.mlir"
    assert ireelab_compile([str(program), f"--compile-to={phase}", "-o", str(out)]) == 0
    proc = subprocess.run(["iree-opt", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"iree-opt rejects ireelab's {phase} IR:\n{proc.stderr[:2000]}"
    return out.read_text()


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_flow_output_parses_in_iree(program: Path, tmp_path: Path):
    # every reference program's --compile-to=flow output is valid IREE Flow IR
    text = _compile_and_read_in_iree(program, "flow", tmp_path)
    assert "flow.executable" in text and "flow.dispatch @" in text


@pytest.mark.parametrize("phase", [p for p in PHASES if p not in ("flow", "end")])
def test_seed_matmul_phases_parse_in_iree(phase: str, tmp_path: Path):
    # the founding note's matmul, at each other textual phase, from input to vm
    _compile_and_read_in_iree(SEED_MATMUL, phase, tmp_path)
