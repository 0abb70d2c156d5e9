"""LLVMCPUSelectLoweringStrategyPass: root op, pipeline and workgroup tile sizes."""

from __future__ import annotations

import pytest
from codegen_harness import parse_module, run_codegen
from dispatch_bodies import (
    batch_matmul,
    conv_bias_relu,
    matmul,
    matmul_bias_relu,
    softmax_exp,
    transpose_add,
)

from ireelab.compiler.codegen.select_lowering_strategy import LLVMCPUSelectLoweringStrategyPass


def _select(text: str) -> str:
    return str(run_codegen(parse_module(text), until=LLVMCPUSelectLoweringStrategyPass))


@pytest.mark.parametrize(
    "dispatch, root, pipeline, tiles",
    [
        # the founding note's matmul: IREE 3.13 picks distribution = [2, 2, 0] too
        (matmul(2, 2, 4), "linalg.matmul", "DoubleTilingExpert", "[2, 2, 0]"),
        # a bias + relu epilogue does not change the root: the matmul
        (matmul_bias_relu(128, 192, 32), "linalg.matmul", "DoubleTilingExpert", "[64, 64, 0]"),
        # odd extents get the largest divisor under the target
        (matmul(33, 65, 17), "linalg.matmul", "DoubleTilingExpert", "[33, 13, 0]"),
        # reductions distribute rows only (IREE: distribution = [32, 0])
        (
            softmax_exp(64, 128),
            'iterator_types = ["parallel", "reduction"]',
            "DoubleTilingExpert",
            "[32, 0]",
        ),
        (
            transpose_add(128, 64),
            "affine_map<(d0, d1) -> (d1, d0)>",
            "DoubleTilingExpert",
            "[64, 64]",
        ),
        (
            conv_bias_relu(1, 10, 12, 8, 16),
            "linalg.conv_2d_nhwc_hwcf",
            "ConvTileAndDecomposeExpert",
            "[1, 1, 5, 16, 0, 0, 0]",
        ),
    ],
)
def test_root_op_gets_lowering_config(dispatch, root: str, pipeline: str, tiles: str) -> None:
    # IREE's tile sizes for its vectorising pipeline; micro-kernel tiles are tested below
    text = _select(dispatch.text(ukernels="none"))
    configured = [line for line in text.splitlines() if "lowering_config" in line]
    assert len(configured) == 1
    assert root in configured[0]
    assert f"#iree_cpu.lowering_config<distribution = {tiles}>" in configured[0]
    assert (
        f"translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<{pipeline}>>"
        in text
    )


@pytest.mark.parametrize(
    "dispatch, tiles",
    [
        # 128 rows by up to 256 columns for the GEMM micro-kernel
        (matmul_bias_relu(256, 192, 32), "[128, 192, 0]"),
        (matmul(512, 1024, 256), "[128, 256, 0]"),
        # a short K: rows doubled until a workgroup has 4M multiply-adds (8 workgroups left)
        (matmul(512, 1024, 64), "[256, 256, 0]"),
        # attention's Q K^T: 256 rows, and no further (4 workgroups at least)
        (matmul(512, 512, 64), "[256, 256, 0]"),
        (batch_matmul(3, 16, 24, 8), "[1, 16, 24, 0]"),
    ],
)
def test_micro_kernel_contractions_get_wider_tiles(dispatch, tiles: str) -> None:
    text = _select(dispatch.text())
    assert f"#iree_cpu.lowering_config<distribution = {tiles}>" in text
