"""OptimizeIntArithmeticPass (iree-util-optimize-int-arithmetic): host `affine.apply` becomes
`arith` at the start of global optimisation, as IREE's pass expands it, with affine's
semantics for `mod`, `floordiv` and `ceildiv` of negative values."""

from __future__ import annotations

import numpy as np
import pytest

import ireelab
from ireelab.diagnostics import CompileError

PROGRAM = """
func.func @f(%a: tensor<2xi64>) -> (i64, i64, i64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x64 = tensor.extract %a[%c0] : tensor<2xi64>
  %y64 = tensor.extract %a[%c1] : tensor<2xi64>
  %x = arith.index_cast %x64 : i64 to index
  %y = arith.index_cast %y64 : i64 to index
  %s = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 3 + 20)>()[%x, %y]
  %m = affine.apply affine_map<(d0) -> (d0 mod 4)>(%x)
  %f = affine.apply affine_map<(d0)[s0] -> ((d0 + s0) floordiv 3)>(%x)[%y]
  %c = affine.apply affine_map<(d0) -> (d0 ceildiv 5)>(%y)
  %s64 = arith.index_cast %s : index to i64
  %m64 = arith.index_cast %m : index to i64
  %f64 = arith.index_cast %f : index to i64
  %c64 = arith.index_cast %c : index to i64
  return %s64, %m64, %f64, %c64 : i64, i64, i64, i64
}
"""


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(PROGRAM)


def test_the_pass_runs_first_in_global_optimisation_and_leaves_only_arith(module):
    names = [r.name for r in module.trace]
    at = names.index("OptimizeIntArithmeticPass")
    assert names[at - 1] == "VerifyInputLegalityPass" and module.trace[at].stage == "flow"
    before, after = module.trace[at - 1].ir, module.trace[at].ir
    assert before.count("affine.apply") == 4
    assert "affine.apply" not in after
    assert "arith.remsi" in after and "arith.divsi" in after


@pytest.mark.parametrize("x,y", [(7, 2), (-7, -2), (0, 0), (-1, 11), (13, -13), (-12, 1)])
def test_values_follow_affine_semantics(module, x, y):
    """Python's `%` and `//` round as affine's `mod` and `floordiv` do (towards minus
    infinity); `ceildiv` rounds towards plus infinity."""
    got = module.f(np.array([x, y], np.int64))
    want = (x + 3 * y + 20, x % 4, (x + y) // 3, -((-y) // 5))
    assert tuple(int(v) for v in got) == want


def test_a_divisor_that_is_not_positive_is_a_located_error():
    source = PROGRAM.replace("(d0 mod 4)", "(d0 mod -4)")
    with pytest.raises(CompileError) as info:
        ireelab.compile(source, compile_to="flow")
    message = str(info.value)
    assert ":10:3:" in message and "[flow]" in message and "positive constant" in message
