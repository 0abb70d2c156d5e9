"""Assembly formats compiled on first use (`ireelab.dialects.lazy_formats`): every format of
every dialect the compiler registers still compiles (xDSL checked them when the class was
made), ops parse and print through them as before, and a user's op keeps xDSL's eager check."""

from __future__ import annotations

import subprocess
import sys

import pytest
import xdsl.irdl
from xdsl.irdl import IRDLOperation, operand_def, result_def
from xdsl.utils.exceptions import PyRDLOpDefinitionError

from ireelab.compiler.context import _IREELAB, _UPSTREAM, make_context
from ireelab.dialects import lazy_formats


def _all_registered_ops():
    ctx = make_context()
    ops = []
    for name, _module, _attr in _UPSTREAM + _IREELAB:
        ops.extend(ctx.get_dialect(name).operations)
    return ops


def test_every_registered_format_compiles():
    ops = _all_registered_ops()
    deferred = dict(lazy_formats.DEFERRED)
    formatted = [op for op in ops if op in deferred]
    assert len(formatted) > 250  # xDSL's and ireelab's formatted ops are deferred
    for op in formatted:
        program = deferred[op].program()
        assert program is deferred[op].program()  # compiled once
        assert program.stmts, op.name


def test_nothing_compiled_at_import():
    """A fresh process that imports the dialects compiles no format until it parses."""
    code = (
        "import ireelab.compiler.driver as d\n"
        "from ireelab.dialects import lazy_formats as lf, vm\n"
        "d._passes(d.CompileOptions())\n"
        "assert len(lf.DEFERRED) > 250, len(lf.DEFERRED)\n"
        "assert all(lazy._program is None for _, lazy in lf.DEFERRED)\n"
        "from ireelab.compiler.source import parse_source\n"
        "m = parse_source('func.func @f(%a: i32) -> i32 {\\n"
        "  %b = arith.addi %a, %a : i32\\n  return %b : i32\\n}', 'x')\n"
        "print(sum(lazy._program is not None for _, lazy in lf.DEFERRED))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert 1 <= int(done.stdout) <= 5  # arith.addi and func.return


def test_parse_and_print_round_trip():
    from ireelab.compiler.source import parse_source
    from ireelab.compiler.trace import print_ir

    text = (
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %c = arith.constant 2.0 : f32\n"
        "  %e = tensor.empty() : tensor<4xf32>\n"
        "  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>\n"
        "  %s = arith.addf %a, %f : tensor<4xf32>\n"
        "  return %s : tensor<4xf32>\n"
        "}\n"
    )
    printed = print_ir(parse_source(text, "x"))
    assert "arith.addf %" in printed and ": tensor<4xf32>" in printed
    assert print_ir(parse_source(printed, "y")) == printed


def test_user_op_keeps_eager_check():
    assert xdsl.irdl.irdl_op_definition is lazy_formats.lazy_op_definition
    with pytest.raises(PyRDLOpDefinitionError):

        @xdsl.irdl.irdl_op_definition  # as a dialect module imported now binds it
        class BadFormatOp(IRDLOperation):
            name = "user.bad"
            x = operand_def()
            y = result_def()
            assembly_format = "$x attr-dict : $nonexistent"

    assert all(op.__name__ != "BadFormatOp" for op, _ in lazy_formats.DEFERRED)


def test_library_op_reports_a_bad_format_when_first_used():
    """A deferred format that does not compile raises xDSL's error, at first use."""

    @xdsl.irdl.irdl_op_definition
    class LateBadFormatOp(IRDLOperation):
        __module__ = "ireelab.tests_fake_dialect"
        name = "fake.late_bad"
        x = operand_def()
        y = result_def()
        assembly_format = "$x attr-dict : $nonexistent"

    lazy = dict(lazy_formats.DEFERRED)[LateBadFormatOp]
    with pytest.raises(PyRDLOpDefinitionError, match="assembly format"):
        lazy.program()
