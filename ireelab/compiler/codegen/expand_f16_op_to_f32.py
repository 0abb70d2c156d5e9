"""`ExpandF16OpToF32Pass` (`iree-llvmcpu-expand-f16-op-to-f32`): f16 arithmetic computed in f32.

IREE runs this pass in the LLVMCPU configuration pipeline, right before
`LLVMCPUSelectLoweringStrategyPass`, on the dispatch functions' tensor-level linalg bodies. Its
rewrite: an op whose result is f16 gets its f16 operands extended to f32 (`arith.extf`), is
recreated on f32, and its result truncated back to f16 (`arith.truncf`). Every op therefore
still rounds its result to f16 once, exactly as IEEE half arithmetic does (an f32 result
rounded to f16 is the correctly rounded f16 result for + - * / and sqrt).

In IREE 3.13 the pass applies this to `arith.maximumf` only: LLVM's x86 backend widens every
other half operation to float by itself when it legalises types. numba has no half type at
all, so in ireelab this pass is where that widening happens, for every f16 `arith` / `math`
computation: the same rewrite, applied to all of them, and to `arith.cmpf` (whose i1 result
needs no truncation). Conversions and moves (`extf`, `truncf`, `sitofp`, `fptosi`, `select`,
constants, `bitcast`) keep their f16 types; the kernel emitter handles those
(`f16_storage.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float16Type, ModuleOp, f32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from ireelab.diagnostics import copy_location
from ireelab.schemas.small_float_formats import FORMATS

KEEP_F16 = frozenset(
    {
        "arith.constant",
        "arith.extf",
        "arith.truncf",
        "arith.sitofp",
        "arith.uitofp",
        "arith.fptosi",
        "arith.fptoui",
        "arith.bitcast",
        "arith.select",
        "arith.scaling_extf",
        "arith.scaling_truncf",
    }
)
"""Ops that convert or move f16 values rather than compute with them."""


def _is_f16(value: SSAValue) -> bool:
    """f16, or bf16 / an 8-bit float (IREE's ConvertUnsupportedFloatArithPass widens those)."""
    return isinstance(value.type, Float16Type) or str(value.type) in FORMATS


def _is_small_float(value: SSAValue) -> bool:
    return str(value.type) in FORMATS


def computes_in_f16(op: Operation) -> bool:
    """An `arith` / `math` computation with an f16 result or f16 operands (a select of small
    floats too: IREE's type conversion moves it to f32 with the values it picks)."""
    if op.dialect_name() not in ("arith", "math"):
        return False
    if op.name in KEEP_F16 and not (
        op.name == "arith.select" and any(map(_is_small_float, op.results))
    ):
        return False
    return any(_is_f16(v) for v in (*op.results, *op.operands))


class ExpandF16OpToF32Pattern(RewritePattern):
    """`%r = op %a, %b : f16` -> `truncf(op(extf %a, extf %b) : f32)`.

    For bf16 and the 8-bit floats, an operand that an op rewritten here produced is read in
    f32 as computed, not rounded and extended again: IREE's ConvertUnsupportedFloatArithPass
    converts those types by a type conversion, so inside a dispatch a chain of their ops stays
    in f32 and rounds only where a value leaves it (stored, or an explicit `extf`). f16 is
    LLVM's and rounds after every op."""

    def __init__(self) -> None:
        super().__init__()
        self._wide: dict[SSAValue, SSAValue] = {}
        """Small-float results of rewritten ops -> their unrounded f32 values."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not computes_in_f16(op) or len(op.results) != 1:
            return
        extended: list[Operation] = []
        operands: list[SSAValue] = []
        for operand in op.operands:
            if not _is_f16(operand):
                operands.append(operand)
                continue
            if operand in self._wide:
                operands.append(self._wide[operand])
                continue
            ext = arith.ExtFOp(operand, f32)
            extended.append(ext)
            operands.append(ext.result)
        result = op.results[0]
        wide = op.__class__.create(
            operands=operands,
            result_types=[f32 if _is_f16(result) else result.type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        copy_location(op, wide)
        new_ops: list[Operation] = [*extended, wide]
        if _is_f16(result):
            new_ops.append(arith.TruncFOp(wide.results[0], result.type))
        rewriter.replace(op, new_ops, [new_ops[-1].results[0]])
        if _is_small_float(result):
            self._wide[new_ops[-1].results[0]] = wide.results[0]


@dataclass(frozen=True)
class ExpandF16OpToF32Pass(ModulePass):
    """Compute every f16 `arith` / `math` op in f32, rounding each result back to f16."""

    name = "iree-llvmcpu-expand-f16-op-to-f32"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ExpandF16OpToF32Pattern(), apply_recursively=False).rewrite_module(op)
