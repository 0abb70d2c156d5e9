"""The linalg named ops ireelab adds to xDSL's: they parse, verify, print back, and carry
MLIR's semantics (indexing maps, iterator types, scalar body)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from reference_paths import REFERENCE
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ireelab.dialects.linalg_ext import Linalg

HERE = Path(__file__).parent


def _context() -> Context:
    ctx = Context()
    for module, attr in (
        ("xdsl.dialects.builtin", "Builtin"),
        ("xdsl.dialects.func", "Func"),
        ("xdsl.dialects.arith", "Arith"),
        ("xdsl.dialects.math", "Math"),
        ("xdsl.dialects.tensor", "Tensor"),
    ):
        ctx.load_dialect(getattr(importlib.import_module(module), attr))
    ctx.load_dialect(Linalg)
    return ctx


def _parse(text: str) -> ModuleOp:
    module = Parser(_context(), text).parse_module()
    module.verify()
    return module


@pytest.fixture(scope="module")
def module() -> ModuleOp:
    return _parse((HERE / "linalg_ext_ops.mlir").read_text())


def _ops(module: ModuleOp, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def _maps(op) -> list[str]:
    return [str(m.data) for m in op.get_indexing_maps()]


def _iterators(op) -> list[str]:
    return [str(i.data) for i in op.get_iterator_types()]


def test_round_trip(module: ModuleOp) -> None:
    # What ireelab prints parses back to the same text.
    text = str(module)
    assert str(_parse(text)) == text


def test_batch_matmul_semantics(module: ModuleOp) -> None:
    (op,) = _ops(module, "linalg.batch_matmul")
    assert _maps(op) == [
        "(d0, d1, d2, d3) -> (d0, d1, d3)",
        "(d0, d1, d2, d3) -> (d0, d3, d2)",
        "(d0, d1, d2, d3) -> (d0, d1, d2)",
    ]
    assert _iterators(op) == ["parallel", "parallel", "parallel", "reduction"]
    body = [o.name for o in op.body.block.ops]
    assert body == ["arith.mulf", "arith.addf", "linalg.yield"]


def test_matvec_vecmat_dot(module: ModuleOp) -> None:
    (matvec,) = _ops(module, "linalg.matvec")
    (vecmat,) = _ops(module, "linalg.vecmat")
    (dot,) = _ops(module, "linalg.dot")
    assert _maps(matvec) == ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0)"]
    assert _maps(vecmat) == ["(d0, d1) -> (d1)", "(d0, d1) -> (d1, d0)", "(d0, d1) -> (d0)"]
    assert _iterators(dot) == ["reduction"]
    assert _maps(dot)[-1] == "(d0) -> ()"


def test_pooling_window_and_body(module: ModuleOp) -> None:
    # Stride 2 shows in the input map; max pooling compares against the accumulator.
    (pool,) = _ops(module, "linalg.pooling_nhwc_max")
    assert (
        _maps(pool)[0] == "(d0, d1, d2, d3, d4, d5) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + d5), d3)"
    )
    assert _iterators(pool)[-2:] == ["reduction", "reduction"]
    block = pool.body.block
    (maximum,) = [o for o in block.ops if o.name == "arith.maximumf"]
    assert set(maximum.operands) == {block.args[0], block.args[2]}


def test_depthwise_conv_iterators(module: ModuleOp) -> None:
    (conv,) = _ops(module, "linalg.depthwise_conv_2d_nhwc_hwc")
    assert _iterators(conv) == ["parallel"] * 4 + ["reduction"] * 2
    assert _maps(conv)[1] == "(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)"


def test_mixed_type_matmul_extends_inputs(module: ModuleOp) -> None:
    # i8 x i8 -> i32: the operands are sign-extended before the multiply, as in MLIR.
    int_matmul = next(op for op in _ops(module, "linalg.matmul") if "i32" in str(op.res[0].type))
    assert [o.name for o in int_matmul.body.block.ops] == [
        "arith.extsi",
        "arith.extsi",
        "arith.muli",
        "arith.addi",
        "linalg.yield",
    ]


def test_matmul_with_indexing_maps(module: ModuleOp) -> None:
    # IREE prints a matmul that absorbed a transpose with explicit maps; they round-trip.
    transposed = _ops(module, "linalg.matmul")[-1]
    assert _maps(transposed)[1] == "(d0, d1, d2) -> (d1, d2)"
    assert "indexing_maps = [" in str(transposed)
    default = _ops(module, "linalg.matmul")[0]
    assert "indexing_maps" not in str(default)


def test_map_short_and_long_forms(module: ModuleOp) -> None:
    short, long = _ops(module, "linalg.map")
    assert [o.name for o in short.mapper.block.ops] == ["arith.addf", "linalg.yield"]
    assert [o.name for o in long.mapper.block.ops] == ["math.exp", "linalg.yield"]
    assert _iterators(long) == ["parallel"] * 4


def test_elementwise_named_ops(module: ModuleOp) -> None:
    (div,) = _ops(module, "linalg.div")
    (tanh,) = _ops(module, "linalg.tanh")
    assert [o.name for o in div.body.block.ops] == ["arith.divf", "linalg.yield"]
    assert [o.name for o in tanh.body.block.ops] == ["math.tanh", "linalg.yield"]


def test_reference_programs_parse() -> None:
    # Every reference program, batch_matmul included, parses and verifies.
    programs = REFERENCE / "programs"
    if not programs.exists():
        pytest.skip("reference programs not present")
    for path in sorted(programs.glob("*.mlir")):
        _parse(path.read_text())
