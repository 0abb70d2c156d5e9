"""DecomposeAggregatedOpPass (`iree-linalg-ext-decompose-aggregated-ops`): the golden file
tests/filecheck/flow/decompose_aggregated_ops.mlir (run by ireelab-opt through conftest) holds
for IREE's own pass too, and the op syntax prints back as IREE prints it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flow_helpers import iree_opt_meets_golden

from ireelab.compiler.context import make_context
from ireelab.compiler.driver import print_ir
from ireelab.compiler.source import parse_source

GOLDEN = Path(__file__).parent.parent / "filecheck" / "flow" / "decompose_aggregated_ops.mlir"


def test_ops_print_as_iree_prints_them() -> None:
    # every (de)quantize_affine line of the golden input comes back unchanged
    make_context()
    text = GOLDEN.read_text()
    printed = print_ir(parse_source(text, str(GOLDEN)))
    ops = [line.strip() for line in text.splitlines() if "quantize_affine <" in line]
    assert len(ops) == 4
    for line in ops:
        assert line in printed


def test_flags_parse_in_any_order() -> None:
    text = GOLDEN.read_text().replace(
        "storage_unsigned, zp_unsigned", "zp_unsigned, storage_unsigned"
    )
    assert "storage_unsigned, zp_unsigned" in print_ir(parse_source(text, "golden"))


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs the real IREE")
def test_iree_pass_meets_the_same_golden() -> None:
    ops = "iree_linalg_ext.quantize_affine,iree_linalg_ext.dequantize_affine"
    pipeline = (
        f"builtin.module(util.func(iree-linalg-ext-decompose-aggregated-ops{{filter-ops={ops}}}))"
    )
    iree_opt_meets_golden(GOLDEN, pipeline)
