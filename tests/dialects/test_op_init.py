"""IRDL op construction from a plan (`ireelab.dialects.op_init`): installed, the same ops and the
same errors as xDSL's `irdl_op_init` / `IRDLOperation.__post_init__` for every kind of group,
option and default, the same module bytes for a compiled program, and a guard that fails when
xDSL's builder changes (an upgrade must re-read op_init.py)."""

from __future__ import annotations

import hashlib
import inspect
from dataclasses import dataclass

import pytest
from xdsl.dialects import arith, builtin, cf, func, scf, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr, f32, i1, i32
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Block, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    IRDLOperation,
    IRDLOption,
    SameVariadicOperandSize,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    opt_result_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl import operations as xdsl_operations

from ireelab.compiler.api import compile_text
from ireelab.dialects import op_init


@irdl_op_definition
class KindsOp(IRDLOperation):
    """Every group kind, segment sizes as a property and as an attribute, defaults of both kinds."""

    name = "test_op_init.kinds"
    one = operand_def()
    maybe = opt_operand_def()
    many = var_operand_def()
    out = var_result_def()
    out_maybe = opt_result_def()
    body = opt_region_def()
    tag = prop_def(StringAttr, default_value=StringAttr("t"))
    note = opt_prop_def(StringAttr, default_value=StringAttr("n"))
    level = attr_def(IntegerAttr, default_value=IntegerAttr(3, i32))
    irdl_options = (AttrSizedOperandSegments(as_property=True), AttrSizedResultSegments())


@irdl_op_definition
class SameSizesOp(IRDLOperation):
    name = "test_op_init.same"
    a = var_operand_def()
    b = var_operand_def()
    irdl_options = (SameVariadicOperandSize(),)


def _values(n, type=i32):
    return list(test.TestOp(result_types=[type] * n).results)


def _shape(op):
    """Everything a builder decides, comparable across two builds of one op."""
    return (
        type(op),
        tuple(v if v in SHARED else (v.owner.name, v.type) for v in op.operands),
        tuple(r.type for r in op.results),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
        op.location,
        tuple(len(r.blocks) for r in op.regions),
        tuple(len(b.ops) for r in op.regions for b in r.blocks),
        tuple(op.successors),
    )


def _build(make, fast):
    (op_init.install if fast else op_init.uninstall)()
    try:
        return "op", make()
    except Exception as err:  # noqa: BLE001 - the error is what is compared
        return type(err).__name__, str(err)
    finally:
        op_init.install()


x, y, z = _values(3)
fx, fy = _values(2, f32)
blocks = [Block(), Block()]
SHARED = {x, y, z, fx, fy}
"""Operands both builds take; the others are results of ops each build makes anew."""

CASES = {
    "addf": lambda: arith.AddfOp(fx, fy),
    "constant": lambda: arith.ConstantOp(IntegerAttr(5, IndexType())),
    "op as operand": lambda: arith.AddfOp(arith.ConstantOp(builtin.FloatAttr(1.0, f32)), fy),
    "test, all variadic": lambda: test.TestOp(
        operands=[x, y], result_types=[i32, f32], regions=[Region(), [test.TestOp()]]
    ),
    "func with body": lambda: func.FuncOp(
        "f",
        ((i32,), (i32,)),
        Region(Block([func.ReturnOp(test.TestOp([], [i32]))], arg_types=[i32])),
    ),
    "scf.for": lambda: scf.ForOp(x, y, z, [], Block([scf.YieldOp()], arg_types=[i32])),
    "linalg.fill (segments, property)": lambda: FillOp(
        (fx,),
        (test.TestOp(result_types=[builtin.TensorType(f32, [4])]).res[0],),
        (builtin.TensorType(f32, [4]),),
    ),
    "cf.cond_br (successors, segments)": lambda: cf.ConditionalBranchOp(
        test.TestOp(result_types=[i1]).res[0], blocks[0], [x, y], blocks[1], [z]
    ),
    "kinds, defaults filled": lambda: KindsOp.build(
        operands=[x, None, [y, z]], result_types=[[i32, f32], None], regions=[None]
    ),
    "kinds, everything given": lambda: KindsOp.build(
        operands=[[x], [y], []],
        result_types=[[], [i32]],
        regions=[[test.TestOp()]],
        properties={"tag": StringAttr("p"), "note": None},
        attributes={"level": IntegerAttr(7, i32), "extra": StringAttr("e")},
    ),
    "same sizes": lambda: SameSizesOp.build(operands=[[x, y], [z, x]]),
}

ERRORS = {
    "too few operands": lambda: KindsOp.build(operands=[x], result_types=[[], None]),
    "None for a single operand": lambda: KindsOp.build(
        operands=[None, None, []], result_types=[[], None], regions=[None]
    ),
    "two for a single operand": lambda: KindsOp.build(
        operands=[[x, y], None, []], result_types=[[], None], regions=[None]
    ),
    "two for an optional operand": lambda: KindsOp.build(
        operands=[x, [y, z], []], result_types=[[], None], regions=[None]
    ),
    "None for a variadic result": lambda: KindsOp.build(
        operands=[x, None, []], result_types=[None, None], regions=[None]
    ),
    "an op with two results as operand": lambda: arith.AddfOp(
        test.TestOp(result_types=[f32, f32]), fy
    ),
    "different variadic sizes": lambda: SameSizesOp.build(operands=[[x, y], [z]]),
}


def test_installed():
    assert xdsl_operations.irdl_op_init is op_init.irdl_op_init
    assert IRDLOperation.__post_init__ is op_init.post_init


@pytest.mark.parametrize("case", CASES)
def test_same_op_as_xdsls(case):
    ours, theirs = _build(CASES[case], True), _build(CASES[case], False)
    assert ours[0] == theirs[0] == "op", (ours, theirs)
    assert _shape(ours[1]) == _shape(theirs[1])


@pytest.mark.parametrize("case", ERRORS)
def test_same_error_as_xdsls(case):
    ours, theirs = _build(ERRORS[case], True), _build(ERRORS[case], False)
    assert ours[0] != "op", ours
    assert ours == theirs


@dataclass
class _OwnOption(IRDLOption):
    """An option xDSL's builder passes over (`case _: pass`), and so does the plan."""


@dataclass
class _OwnSegments(AttrSizedSegments):
    """Segment sizes of no group xDSL's builder knows: it raises, so the plan is None."""

    attribute_name = "ownSegmentSizes"


@irdl_op_definition
class OwnOptionOp(IRDLOperation):
    name = "test_op_init.own_option"
    a = var_operand_def()
    irdl_options = (_OwnOption(),)


@irdl_op_definition
class OwnSegmentsOp(IRDLOperation):
    name = "test_op_init.own_segments"
    a = var_operand_def()
    irdl_options = (_OwnSegments(),)


def test_options_xdsls_builder_does_not_know():
    assert op_init.plan_of(OwnOptionOp.get_irdl_definition()) is not None
    assert op_init.plan_of(OwnSegmentsOp.get_irdl_definition()) is None
    ours = _build(lambda: OwnOptionOp.build(operands=[[x, y]]), True)
    assert _shape(ours[1]) == _shape(_build(lambda: OwnOptionOp.build(operands=[[x, y]]), False)[1])
    ours = _build(lambda: OwnSegmentsOp.build(operands=[[x, y]]), True)
    assert ours[0] == "ValueError" and "Unexpected option" in ours[1]
    assert ours == _build(lambda: OwnSegmentsOp.build(operands=[[x, y]]), False)


def test_segment_sizes_are_xdsls_attribute():
    """Ops with the same sizes share one attribute, equal to the one xDSL makes, and xDSL's
    accessors read their groups through it."""
    cond = test.TestOp(result_types=[i1]).res[0]
    first = cf.ConditionalBranchOp(cond, blocks[0], [x], blocks[1], [])
    second = cf.ConditionalBranchOp(cond, blocks[1], [y], blocks[0], [])
    sizes = first.properties["operandSegmentSizes"]
    assert sizes == builtin.DenseArrayBase.from_list(i32, [1, 1, 0])
    assert second.properties["operandSegmentSizes"] is sizes
    assert tuple(first.then_arguments) == (x,) and tuple(second.else_arguments) == ()


def test_module_bytes_equal_xdsls():
    source = """
    func.func @main(%a: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<4x3xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
      %m = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x3xf32>)
                         outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
      return %m : tensor<4x3xf32>
    }
    """
    ours = compile_text(source).module_bytes()
    op_init.uninstall()
    try:
        theirs = compile_text(source).module_bytes()
    finally:
        op_init.install()
    assert ours == theirs


MIRRORED = {
    op_init.XDSL_OP_INIT: "9f2de5d1bf4b",
    xdsl_operations.irdl_build_arg_list: "bdad3878537b",
    xdsl_operations.irdl_build_operations_arg: "37621ee3f671",
    op_init.XDSL_POST_INIT: "5b7289927221",
    op_init.XDSL_UNKNOWN_LOC: "2eaf30167eed",
}


def test_xdsls_builder_is_the_one_mirrored():
    """op_init.py repeats these xDSL functions' steps: if xDSL changes one, re-read it
    against op_init.py (and record the new digest here)."""
    for function, digest in MIRRORED.items():
        source = inspect.getsource(function)
        assert hashlib.sha256(source.encode()).hexdigest()[:12] == digest, function.__qualname__
