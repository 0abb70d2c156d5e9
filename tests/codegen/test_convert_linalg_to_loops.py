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
