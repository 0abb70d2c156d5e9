"""ConvertLinalgToLoopsPass and FoldMemRefAliasOpsPass: loop nests over absolute indices."""

from __future__ import annotations

import re

from codegen_harness import parse_module, run_codegen
from dispatch_bodies import matmul, softmax_exp

from ireelab.compiler.codegen.convert_linalg_to_loops import ConvertLinalgToLoopsPass
from ireelab.compiler.codegen.fold_memref_alias_ops import FoldMemRefAliasOpsPass


def test_matmul_loops_run_m_k_n_with_n_innermost() -> None:
    # without micro-kernels (target `ukernels = "none"`) a matmul lowers to loops
    text = str(
        run_codegen(
            parse_module(matmul(4, 8, 2).text(ukernels="none")), until=ConvertLinalgToLoopsPass
        )
    )
    assert "linalg." not in text.split("builtin.module {", 1)[1]
    m, k, n = re.findall(r"scf.for (%\w+) = ", text)[-3:]
    # A[m, k] * B[k, n] accumulated into C[m, n]: the inner loop walks rows of B and C
    assert re.search(rf"memref.load %\w+\[{m}, {k}\]", text)
    assert re.search(rf"memref.load %\w+\[{k}, {n}\]", text)
    assert re.search(rf"memref.store %\w+, %\w+\[{m}, {n}\]", text)


def test_alias_folding_leaves_no_subviews() -> None:
    text = str(
        run_codegen(
            parse_module(matmul(128, 128, 8).text(ukernels="none")), until=FoldMemRefAliasOpsPass
        )
    )
    assert "memref.subview" not in text
    # the tile offset is added to the loop index before every access to a binding
    assert re.search(r"arith.addi %\w+, %\w+ : index\n\s*%\w+ = memref.load %arg0", text)


def test_row_reduction_carries_its_accumulator_through_the_inner_loop() -> None:
    text = str(
        run_codegen(parse_module(softmax_exp(64, 128).text()), until=ConvertLinalgToLoopsPass)
    )
    # max over a row: loaded once before the loop, carried as iter_args, stored once after
    carried = re.search(
        r"(%\w+) = memref.load (%\w+)\[(%\w+)\] : memref<32xf32>\n"
        r"\s*(%\w+) = scf.for %\w+ = %\w+ to %\w+ step %\w+ iter_args\(%\w+ = \1\) -> \(f32\)",
        text,
    )
    assert carried
    accumulator, index, result = carried[2], carried[3], carried[4]
    assert re.search(rf"memref.store {result}, {accumulator}\[{index}\]", text)


def test_strided_slice_loads_index_the_binding_with_the_stride() -> None:
    # A strided extract_slice is a strided dispatch load (IREE's slow_memcpy); its subview
    # folds into loads at offset + stride * i of the binding itself.
    import ireelab

    source = """func.func @s(%a: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %r = tensor.extract_slice %a[1, 4] [4, 8] [2, 1] : tensor<8x16xf32> to tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}"""
    trace = ireelab.compile(source, compile_to="executable-targets").trace
    text = next(r.ir for r in trace.stage("codegen") if r.name == "FoldMemRefAliasOpsPass")
    kernel = text[text.index("func.func @s_dispatch_0_slow_memcpy") :]
    kernel = kernel[: kernel.index("func.return")]
    assert "memref.subview" not in kernel
    i, _ = re.findall(r"scf.for (%\w+) = ", kernel)
    two = re.search(r"(%\w+) = arith.constant 2 : index", kernel)[1]
    scaled = re.search(rf"(%\w+) = arith.muli {i}, {two} : index", kernel)[1]
    row = re.search(rf"(%\w+) = arith.addi %\w+, {scaled} : index", kernel)[1]
    assert re.search(rf"memref.load %\w+\[{row}, %\w+\] : memref<8x16xf32>", kernel)
