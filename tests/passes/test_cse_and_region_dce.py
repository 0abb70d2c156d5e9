"""ireelab's CSE driver (`input/cse.py`) and region DCE (`input/region_dce.py`) do what xDSL's
do, op for op: each runs beside xDSL's on a copy of the same IR and the two results print
alike. The programs cover what the two decide on: duplicates in nested and isolated scopes,
read-only ops with a write between them, uses replaced after a duplicate was recorded, dead
chains, side-effecting ops, unreached blocks, and the IR of the whole pipeline at every
canonicalizer and CSE of the 64-layer MLP and an e2e program.

One decision differs on purpose: linalg ops on tensors are free of effects here, as MLIR's
are (xDSL's declare none, so its CSE keeps every duplicate `linalg.fill` or reduction), and
the two drivers are compared with xDSL's given the same rule (`xdsl_cse` below)."""

from __future__ import annotations

from pathlib import Path

import pytest
import xdsl.transforms.common_subexpression_elimination as xdsl_cse_module
from xdsl.transforms.dead_code_elimination import region_dce as xdsl_region_dce

from ireelab.compiler.driver import CompileOptions, _apply, _passes
from ireelab.compiler.input.cse import FewerHashesCSEDriver, on_tensors_only
from ireelab.compiler.input.region_dce import region_dce
from ireelab.compiler.source import parse_source
from ireelab.compiler.trace import print_ir

TREE = Path(__file__).resolve().parents[2]


def xdsl_cse(module) -> None:
    """xDSL's CSE with linalg ops on tensors counted free of effects, as ireelab's are."""
    plain = xdsl_cse_module.is_side_effect_free
    xdsl_cse_module.is_side_effect_free = lambda op: plain(op) or on_tensors_only(op)
    try:
        xdsl_cse_module.cse(module)
    finally:
        xdsl_cse_module.is_side_effect_free = plain


SCOPES = """
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %m: memref<4xf32>, %i: index) -> f32 {
  %x = arith.addf %a, %b : tensor<4xf32>
  %y = arith.addf %a, %b : tensor<4xf32>
  %z = arith.mulf %x, %y : tensor<4xf32>
  %w = arith.mulf %y, %y : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c0b = arith.constant 0 : index
  %r1 = memref.load %m[%c0] : memref<4xf32>
  %r2 = memref.load %m[%c0b] : memref<4xf32>
  memref.store %r1, %m[%c0] : memref<4xf32>
  %r3 = memref.load %m[%c0] : memref<4xf32>
  %s = arith.addf %r2, %r3 : f32
  %dead = arith.mulf %s, %s : f32
  %dead2 = arith.addf %dead, %s : f32
  %t = scf.for %k = %c0 to %i step %i iter_args(%acc = %s) -> (f32) {
    %c0c = arith.constant 0 : index
    %q = arith.addf %acc, %s : f32
    %q2 = arith.addf %acc, %s : f32
    %unused = arith.mulf %q2, %q2 : f32
    %sum = arith.addf %q, %q2 : f32
    scf.yield %sum : f32
  }
  %e = tensor.extract %z[%c0] : tensor<4xf32>
  %e2 = tensor.extract %w[%c0b] : tensor<4xf32>
  %u = arith.addf %t, %e : f32
  %v = arith.addf %u, %e2 : f32
  func.return %v : f32
}
func.func private @g(%a: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %s = arith.addi %a, %c1 : i32
  %s2 = arith.addi %a, %c1b : i32
  %p = arith.muli %s, %s2 : i32
  func.return %p : i32
}
"""

BLOCKS = """
func.func @h(%a: i32, %flag: i1) -> i32 {
  %c1 = arith.constant 1 : i32
  %dead = arith.addi %a, %c1 : i32
  cf.cond_br %flag, ^bb1, ^bb2(%a : i32)
^bb1:
  %x = arith.addi %a, %a : i32
  %unused = arith.muli %x, %x : i32
  cf.br ^bb2(%x : i32)
^bb2(%v: i32):
  func.return %v : i32
^bb3:
  %lost = arith.addi %a, %c1 : i32
  cf.br ^bb2(%lost : i32)
}
"""


def _pair(text: str):
    module = parse_source(text, "t.mlir")
    return module, module.clone()


@pytest.mark.parametrize(
    ("source", "changes"), [(SCOPES, True), (BLOCKS, False)], ids=["scopes", "blocks"]
)
def test_cse_as_xdsl(source: str, changes: bool) -> None:
    """(CSE leaves a region of several blocks alone, in both.)"""
    mine, theirs = _pair(source)
    FewerHashesCSEDriver().simplify(mine)
    xdsl_cse(theirs)
    assert print_ir(mine) == print_ir(theirs)
    assert (print_ir(mine) != print_ir(parse_source(source, "t.mlir"))) is changes


@pytest.mark.parametrize("source", [SCOPES, BLOCKS], ids=["scopes", "blocks"])
def test_region_dce_as_xdsl(source: str) -> None:
    mine, theirs = _pair(source)
    assert region_dce(mine.body) == xdsl_region_dce(theirs.body) is True
    assert print_ir(mine) == print_ir(theirs)
    assert "%dead" not in print_ir(mine) and "lost" not in print_ir(mine)
    assert region_dce(mine.body) is False  # nothing left to erase


def _pipeline_cases() -> list[str]:
    import sys

    sys.path.insert(0, str(TREE / "benchmarks"))
    from compile_scale import mlp_source

    return [mlp_source(16, False), mlp_source(3, True)]


@pytest.mark.parametrize("source", _pipeline_cases(), ids=["mlp16_same", "mlp3_distinct"])
def test_pipeline_ir_as_xdsl(source: str) -> None:
    """Before every canonicalizer and CSE of the pipeline, both versions on a copy agree."""
    from xdsl.context import Context

    from ireelab.compiler.context import make_context
    from ireelab.compiler.input.common import CanonicalizerPass, CSEPass

    ctx: Context = make_context()
    module = parse_source(source, "mlp.mlir")
    checked = 0
    for stage, p in _passes(CompileOptions(keep_ir=False)):
        if isinstance(p, CSEPass | CanonicalizerPass):
            mine, theirs = module.clone(), module.clone()
            if isinstance(p, CSEPass):
                FewerHashesCSEDriver().simplify(mine)
                xdsl_cse(theirs)
            else:
                assert region_dce(mine.body) == xdsl_region_dce(theirs.body)
            assert print_ir(mine) == print_ir(theirs), f"after pass {checked}"
            checked += 1
        _apply(p, ctx, module, stage, True)
    assert checked >= 8


LINALG_DUPLICATES = """
func.func @f(%a: tensor<3x8xf32>, %m: memref<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %f2 = linalg.fill ins(%c : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<3x8xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<3xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<3x8xf32>) outs(%f2 : tensor<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<3xf32>
  linalg.fill ins(%c : f32) outs(%m : memref<3xf32>)
  linalg.fill ins(%c : f32) outs(%m : memref<3xf32>)
  func.return %r, %r2 : tensor<3xf32>, tensor<3xf32>
}
"""


def test_linalg_ops_on_tensors_merge_and_on_memrefs_stay():
    # MLIR's CSE merges the two fills and then the two sums (IREE relies on it: a layer
    # norm's or group norm's mean read twice is one reduction); writes to a memref stay
    module = parse_source(LINALG_DUPLICATES, "dup.mlir")
    FewerHashesCSEDriver().simplify(module)
    ir = print_ir(module)
    assert ir.count("linalg.fill ins(%c : f32) outs(%e") == 1
    assert ir.count("linalg.generic") == 1
    assert "func.return %r, %r :" in ir
    assert ir.count("outs(%m : memref<3xf32>)") == 2
