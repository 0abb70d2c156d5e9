"""ConvertLinalgToLoopsPass and FoldMemRefAliasOpsPass: loop nests over absolute indices."""

from __future__ import annotations

import re

from codegen_harness import parse_module, run_codegen
from dispatch_bodies import matmul

from ireelab.compiler.codegen.convert_linalg_to_loops import ConvertLinalgToLoopsPass
from ireelab.compiler.codegen.fold_memref_alias_ops import FoldMemRefAliasOpsPass


def test_matmul_loops_run_m_k_n_with_n_innermost() -> None:
    text = str(run_codegen(parse_module(matmul(4, 8, 2).text()), until=ConvertLinalgToLoopsPass))
    assert "linalg." not in text.split("builtin.module {", 1)[1]
    m, k, n = re.findall(r"scf.for (%\w+) = ", text)[-3:]
    # A[m, k] * B[k, n] accumulated into C[m, n]: the inner loop walks rows of B and C
    assert re.search(rf"memref.load %\w+\[{m}, {k}\]", text)
    assert re.search(rf"memref.load %\w+\[{k}, {n}\]", text)
    assert re.search(rf"memref.store %\w+, %\w+\[{m}, {n}\]", text)


def test_alias_folding_leaves_no_subviews() -> None:
    text = str(run_codegen(parse_module(matmul(128, 128, 8).text()), until=FoldMemRefAliasOpsPass))
    assert "memref.subview" not in text
    # the tile offset is added to the loop index before every access to a binding
    assert re.search(r"arith.addi %\w+, %\w+ : index\n\s*%\w+ = memref.load %arg0", text)
