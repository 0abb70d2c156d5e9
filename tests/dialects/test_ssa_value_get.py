"""`SSAValue.get` with its fast path (`ireelab.dialects.ssa_value_get`): installed, and the
same answer or error as xDSL's own `get` for values, ops, type checks and other arguments."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, builtin, test
from xdsl.ir import SSAValue

from ireelab.dialects import ssa_value_get


def _outcome(get, *args, **kwargs):
    try:
        return "value", get(*args, **kwargs)
    except ValueError as err:
        return "ValueError", str(err)


def test_installed():
    assert SSAValue.get is ssa_value_get.get


@pytest.mark.parametrize("check", [None, builtin.IndexType, builtin.IntegerType])
def test_same_answers_as_xdsls(check):
    constant = arith.ConstantOp(builtin.IntegerAttr(1, builtin.IndexType()))
    two = test.TestOp(result_types=(builtin.i32, builtin.i32))
    kwargs = {} if check is None else {"type": check}
    for arg in (constant.result, constant, two, two.results[1], "not a value"):
        ours = _outcome(SSAValue.get, arg, **kwargs)
        theirs = _outcome(ssa_value_get.XDSL_GET, arg, **kwargs)
        assert ours[0] == theirs[0], arg
        assert ours[1] is theirs[1] or ours[1] == theirs[1], arg
