"""IREEComprehensiveBufferizePass: bindings to memrefs, tiles to subviews, in-place outputs."""

from __future__ import annotations

import re

from codegen_harness import parse_module, run_codegen
from dispatch_bodies import matmul_bias_relu, softmax_exp, transpose_add

from ireelab.compiler.codegen.bufferize import IREEComprehensiveBufferizePass


def _bufferize(text: str) -> str:
    return str(run_codegen(parse_module(text), until=IREEComprehensiveBufferizePass))


def test_epilogue_writes_into_the_output_binding() -> None:
    text = _bufferize(matmul_bias_relu(256, 192, 32).text())
    assert "tensor<" not in text.split("builtin.module {", 1)[1]
    assert (
        "binding(3) alignment(64) offset(%c0_offset) flags(Indirect) : memref<256x192xf32>" in text
    )
    # the micro-kernel writes the output tile; bias + relu then run in place on it
    assert "memref.alloc()" not in text
    assert "memref.copy" not in text
    tile = re.search(r"(%\w+) = memref.subview %arg3\[%\w+, 0\] \[128, 192\] \[1, 1\]", text)
    assert tile
    assert re.search(rf'ukernel.generic "ireelab_uk_matmul" ins\(.*\) outs\({tile[1]} :', text)
    assert re.search(rf"ins\({tile[1]}, %\w+ : .*\) outs\({tile[1]} :", text)


def test_row_reduction_keeps_its_accumulator_in_a_buffer() -> None:
    text = _bufferize(softmax_exp(64, 128).text())
    assert re.search(r"memref.alloc\(\) : memref<32xf32>", text)
    assert text.count("memref.alloc()") == 1


def test_elementwise_dispatch_needs_no_allocation() -> None:
    text = _bufferize(transpose_add(128, 64).text())
    assert "memref.alloc" not in text and "memref.copy" not in text


def test_loop_matmul_fills_and_accumulates_in_the_output_tile() -> None:
    text = _bufferize(matmul_bias_relu(128, 192, 32).text(ukernels="none"))
    # fill, matmul and the in-place epilogue all write the 64x64 output tile: no buffer of
    # their own, no copy
    assert "memref.alloc()" not in text and "memref.copy" not in text
    tile = re.search(r"(%\w+) = memref.subview %arg3\[%\w+, %\w+\] \[64, 64\] \[1, 1\]", text)
    assert tile
    assert re.search(rf"linalg.fill ins\(%\w+ : f32\) outs\({tile[1]} :", text)
    assert re.search(rf"linalg.matmul .*outs\({tile[1]} :", text)
