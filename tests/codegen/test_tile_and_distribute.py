"""TileAndDistributeToWorkgroupsPass: workgroup grid, tiled loads and stores, fused producers."""

from __future__ import annotations

import re

from codegen_harness import parse_module, run_codegen
from dispatch_bodies import matmul, matmul_bias_relu, softmax_exp

from ireelab.compiler.codegen.tile_and_distribute import TileAndDistributeToWorkgroupsPass


def _tile(text: str) -> str:
    return str(run_codegen(parse_module(text), until=TileAndDistributeToWorkgroupsPass))


def test_matmul_epilogue_is_tiled_with_its_producers() -> None:
    text = _tile(matmul_bias_relu(128, 192, 32).text(ukernels="none"))
    # grid: x walks the 192 columns (3 tiles of 64), y the 128 rows (2 tiles)
    assert re.search(
        r"%(\d+) = arith.constant 3 : index\n\s*%(\d+) = arith.constant 2 : index\n\s*%\d+ = arith.constant 1 : index\n\s*hal.return %\1, %\2, %",
        text,
    )
    assert "<workgroup_size = [1 : index, 1 : index, 1 : index]>" in text
    assert "hal.interface.workgroup.id[0]" in text and "hal.interface.workgroup.id[1]" in text
    # the LHS tile is 64 rows of K, the RHS 64 columns, the bias 64 entries
    assert re.search(r"dispatch.tensor.load %arg0, offsets = \[%\w+, 0\], sizes = \[64, 32\]", text)
    assert re.search(r"dispatch.tensor.load %arg1, offsets = \[0, %\w+\], sizes = \[32, 64\]", text)
    assert re.search(r"dispatch.tensor.load %arg2, offsets = \[%\w+\], sizes = \[64\]", text)
    # fill, matmul and epilogue all work on 64x64 tiles; the store writes one tile
    assert text.count("-> tensor<64x64xf32>") == 3
    assert re.search(
        r"dispatch.tensor.store %\w+, %arg3, offsets = \[%\w+, %\w+\], sizes = \[64, 64\]", text
    )
    assert "workgroup_count_from_slice" not in text


def test_row_reduction_distributes_rows_only() -> None:
    text = _tile(softmax_exp(64, 128).text())
    assert "hal.interface.workgroup.id[1]" not in text
    # one load of 32 full rows feeds both the max and the exp consumer
    assert (
        len(
            re.findall(
                r"dispatch.tensor.load %arg0, offsets = \[%\w+, 0\], sizes = \[32, 128\]", text
            )
        )
        == 1
    )
    assert "-> tensor<32xf32>" in text


def test_single_tile_keeps_the_dispatch_whole() -> None:
    text = _tile(matmul(2, 2, 4).text())
    assert re.search(r"%(\d+) = arith.constant 1 : index\n\s*hal.return %\1, %\1, %\1", text)
    assert "hal.interface.workgroup.id" not in text


def test_micro_kernel_tiles_are_wider() -> None:
    text = _tile(matmul_bias_relu(256, 192, 32).text())
    # the GEMM micro-kernel takes 128 rows by up to 256 columns: all 192 columns, 2 row tiles
    assert re.search(r"dispatch.tensor.load %arg1, offsets = \[0, 0\], sizes = \[32, 192\]", text)
    assert re.search(
        r"dispatch.tensor.load %arg0, offsets = \[%\w+, 0\], sizes = \[128, 32\]", text
    )
    assert "hal.interface.workgroup.id[1]" not in text
