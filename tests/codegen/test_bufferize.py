"""IREEComprehensiveBufferizePass: bindings to memrefs, tiles to subviews, in-place outputs."""

from __future__ import annotations

import re
from pathlib import Path

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


def _codegen_ir_after(source: str, pass_name: str) -> str:
    import ireelab

    trace = ireelab.compile(source, compile_to="executable-targets").trace
    return next(r.ir for r in trace.stage("codegen") if r.name == pass_name)


POOL = Path(__file__).parent.parent / "e2e" / "readme_programs" / "pooling_nhwc_max.mlir"


def test_a_pooling_window_tensor_empty_becomes_an_allocation() -> None:
    # The window of linalg.pooling_* is a shape-only tensor.empty input: it gets a buffer
    # (One-Shot Bufferize's allocation of a tensor.empty), not "an input has no buffer".
    text = _codegen_ir_after(POOL.read_text(), "IREEComprehensiveBufferizePass")
    window = re.search(r"(%\w+) = memref.alloc\(\) : memref<2x2xf32>", text)
    assert window
    assert re.search(rf"linalg.generic .*ins\(%\w+, {window[1]} :", text)
    # the loops never read it, so loop lowering erases it with the op
    loops = _codegen_ir_after(POOL.read_text(), "ConvertLinalgToLoopsPass")
    assert "memref.alloc" not in loops
