"""`--iree-opt-data-tiling`: SetEncodingPass, MaterializeHomogeneousEncodingsPass and
JitGlobalsPass turn matmuls into pack / mmt4d / unpack dispatches with tiles for the target,
weights packed at compile time; results equal numpy's (and the real IREE's, with the same flag)
within 1e-4 relative. The default pipeline stays IREE's default (no encodings)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ireelab
from ireelab.compiler.api import compile_text
from ireelab.compiler.driver import CompileOptions
from ireelab.compiler.flow.jit_globals import pack_array
from ireelab.tools.compile import main

MATMUL = """
func.func @mm(%a: tensor<MxKxf32>, %b: tensor<KxNxf32>) -> tensor<MxNxf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<MxNxf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<MxNxf32>) -> tensor<MxNxf32>
  %r = linalg.matmul ins(%a, %b : tensor<MxKxf32>, tensor<KxNxf32>)
      outs(%f : tensor<MxNxf32>) -> tensor<MxNxf32>
  return %r : tensor<MxNxf32>
}
"""

WEIGHTS = np.linspace(-1.0, 1.0, 30 * 70, dtype=np.float32).reshape(30, 70)
CONSTANT_RHS = (
    """
func.func @mmw(%a: tensor<100x30xf32>) -> tensor<100x70xf32> {
  %w = arith.constant dense_resource<w> : tensor<30x70xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x70xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100x70xf32>) -> tensor<100x70xf32>
  %r = linalg.matmul ins(%a, %w : tensor<100x30xf32>, tensor<30x70xf32>)
      outs(%f : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %r : tensor<100x70xf32>
}
{-# dialect_resources: { builtin: { w: "0x04000000"""
    + WEIGHTS.tobytes().hex().upper()
    + '" } } #-}\n'
)

IREE_LHS_ENCODING = (
    "#iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = "
    "[f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
    "affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], "
    "iteration_sizes = [256, 64, 128]>"
)
"""What `iree-compile --iree-opt-data-tiling` 3.13 prints for this lhs (measured)."""


def matmul(m: int, k: int, n: int) -> str:
    return MATMUL.replace("MxK", f"{m}x{k}").replace("KxN", f"{k}x{n}").replace("MxN", f"{m}x{n}")


def flow_exports(source: str, data_tiling: bool) -> list[str]:
    options = CompileOptions(compile_to="flow", data_tiling=data_tiling)
    text = compile_text(source, options=options).ir()
    return re.findall(r"flow\.dispatch @\w+::@\w+_dispatch_\d+_(\w+)\(", text)


def test_default_pipeline_has_no_encodings():
    # IREE's default for this target: one matmul dispatch, no data-tiling pass in the trace
    assert flow_exports(matmul(256, 128, 64), data_tiling=False) == ["matmul_256x64x128_f32"]
    module = ireelab.compile(matmul(8, 8, 8), compile_to="flow")
    assert "SetEncodingPass" not in [r.name for r in module.trace.records]


def test_data_tiling_dispatches_with_avx512_tiles():
    # 16x16x1 tiles (native_vector_size = 64): lhs and rhs packs, mmt4d, unpack of the result
    assert flow_exports(matmul(256, 128, 64), data_tiling=True) == [
        "pack_f32",
        "pack_f32",
        "mmt4d_16x4x128x16x16x1_f32",
        "unpack_f32",
    ]


def test_set_encoding_prints_irees_encoding():
    module = ireelab.compile(matmul(256, 128, 64), compile_to="flow", data_tiling=True)
    records = {r.name: r for r in module.trace.records}
    encoded = records["SetEncodingPass"].ir
    expected = f": tensor<256x128xf32> -> tensor<256x128xf32, {IREE_LHS_ENCODING}>"
    assert re.search(r"iree_encoding\.set_encoding %\w+ " + re.escape(expected), encoded)
    assert "iree_encoding.unset_encoding" in encoded
    materialized = records["MaterializeHomogeneousEncodingsPass"].ir
    assert "iree_encoding" not in materialized
    assert "linalg.mmt4d" in materialized


def test_constant_weights_are_packed_at_compile_time():
    # the rhs pack folds into a constant: no pack dispatch for it, one for the lhs
    exports = flow_exports(CONSTANT_RHS, data_tiling=True)
    assert exports == ["pack_f32", "mmt4d_7x5x30x16x16x1_f32", "unpack_f32"]
    module = ireelab.compile(CONSTANT_RHS, data_tiling=True)
    a = np.random.default_rng(0).standard_normal((100, 30), dtype=np.float32)
    np.testing.assert_allclose(module.mmw(a), a @ WEIGHTS, rtol=1e-4, atol=1e-4)


def test_pack_array_matches_linalg_pack_semantics():
    # numpy's pack (used to fold constants) against a hand-worked 3x5 case
    from xdsl.dialects import tensor
    from xdsl.dialects.builtin import TensorType, f32
    from xdsl.ir import Block

    from ireelab.dialects.linalg_pack import PackOp

    block = Block(arg_types=[TensorType(f32, [3, 5])])
    dest = tensor.EmptyOp([], TensorType(f32, [3, 2, 2, 2]))
    op = PackOp(block.args[0], dest.tensor, [1, 0], [2, 2], [1, 0])
    packed = pack_array(op, np.arange(15, dtype=np.float32).reshape(3, 5), -1.0)
    assert packed[0, 0].tolist() == [[0.0, 5.0], [1.0, 6.0]]
    assert packed[2, 1].tolist() == [[14.0, -1.0], [-1.0, -1.0]]


@pytest.mark.parametrize("shape", [(256, 128, 64), (100, 30, 70)])
def test_data_tiled_matmul_matches_numpy(shape):
    m, k, n = shape
    module = ireelab.compile(matmul(m, k, n), data_tiling=True)
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    np.testing.assert_allclose(module.mm(a, b), a @ b, rtol=1e-4, atol=1e-4)


def test_cli_flag(tmp_path, capsys):
    src = tmp_path / "mm.mlir"
    src.write_text(matmul(32, 16, 32))
    assert main([str(src), "--iree-opt-data-tiling", "--compile-to=flow", "-o", "-"]) == 0
    assert "linalg.mmt4d" in capsys.readouterr().out


@pytest.mark.iree
def test_same_result_as_iree_with_data_tiling():
    compiler = pytest.importorskip("iree.compiler")
    runtime = pytest.importorskip("iree.runtime")
    source = matmul(100, 30, 70)
    vmfb = compiler.compile_str(
        source, target_backends=["llvm-cpu"], extra_args=["--iree-opt-data-tiling"]
    )
    iree_module = runtime.load_vm_flatbuffer(vmfb, backend="llvm-cpu")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((100, 30), dtype=np.float32)
    b = rng.standard_normal((30, 70), dtype=np.float32)
    expected = np.asarray(iree_module.mm(a, b))
    ours = ireelab.compile(source, data_tiling=True).mm(a, b)
    np.testing.assert_allclose(ours, expected, rtol=1e-4, atol=1e-4)


ACCUMULATE = """
func.func @mmacc(%a: tensor<20x12xTY>, %b: tensor<12x18xTY>, %c: tensor<20x18xTY>) -> tensor<20x18xTY> {
  %r = linalg.matmul ins(%a, %b : tensor<20x12xTY>, tensor<12x18xTY>)
      outs(%c : tensor<20x18xTY>) -> tensor<20x18xTY>
  return %r : tensor<20x18xTY>
}
"""


@pytest.mark.parametrize(("element", "dtype"), [("f32", np.float32), ("f64", np.float64)])
def test_accumulating_matmul(element, dtype):
    # f32: DetachElementwiseFromNamedOps made the accumulation an add after a zero-filled
    # matmul, so the add joins the unpack's dispatch; f64 has no tiles for this target (IREE's
    # x86 table has none): the identity layout, a plain matmul
    source = ACCUMULATE.replace("TY", element)
    exports = flow_exports(source, data_tiling=True)
    if element == "f32":
        expected = ["pack_f32", "pack_f32", "mmt4d_2x2x12x16x16x1_f32"]
        assert exports == [*expected, "unpack_elementwise_20x18_f32"]
    else:
        assert exports == ["matmul_20x18x12_f64"]
    module = ireelab.compile(source, data_tiling=True)
    rng = np.random.default_rng(3)
    a, b, c = (rng.standard_normal(s).astype(dtype) for s in ((20, 12), (12, 18), (20, 18)))
    np.testing.assert_allclose(module.mmacc(a, b, c), c + a @ b, rtol=1e-4, atol=1e-4)


def test_mmt4d_workgroups_are_blocks_of_tiles():
    # 32 x 32 tiles of 16 x 16: workgroups of 8 x 16 tiles (128 x 256 of the result), so the
    # micro-kernel reuses each rhs panel across rows of tiles
    text = ireelab.compile(
        matmul(512, 64, 512), compile_to="executable-targets", data_tiling=True
    ).ir()
    assert "memref<8x64x16x1xf32" in text and "memref<16x64x16x1xf32" in text
    assert "memref<8x16x16x16xf32" in text


TRANSPOSED = """
func.func @mmt(%a: tensor<AxBxf32>, %b: tensor<CxDxf32>) -> tensor<40x24xf32> {
  %ea = tensor.empty() : tensor<BxAxf32>
  %ta = linalg.transpose ins(%a : tensor<AxBxf32>) outs(%ea : tensor<BxAxf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<DxCxf32>
  %tb = linalg.transpose ins(%b : tensor<CxDxf32>) outs(%eb : tensor<DxCxf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<40x24xf32>) -> tensor<40x24xf32>
  %r = linalg.matmul ins(LHS, RHS : tensor<40x36xf32>, tensor<36x24xf32>)
      outs(%f : tensor<40x24xf32>) -> tensor<40x24xf32>
  return %r : tensor<40x24xf32>
}
"""


@pytest.mark.parametrize(("lhs_t", "rhs_t"), [(False, True), (True, False), (True, True)])
def test_transposed_operands_are_data_tiled(lhs_t, rhs_t):
    # PropagateLinalgTransposePass folds each transpose into the matmul's maps; the encodings
    # keep those maps and the packs read the stored layout (attention's Q @ K^T)
    a_shape, b_shape = ((36, 40) if lhs_t else (40, 36)), ((24, 36) if rhs_t else (36, 24))
    source = TRANSPOSED.replace("AxB", "x".join(map(str, a_shape)))
    source = source.replace("BxA", "x".join(map(str, a_shape[::-1])))
    source = source.replace("CxD", "x".join(map(str, b_shape)))
    source = source.replace("DxC", "x".join(map(str, b_shape[::-1])))
    source = source.replace("LHS", "%ta" if lhs_t else "%a").replace(
        "RHS", "%tb" if rhs_t else "%b"
    )
    exports = flow_exports(source, data_tiling=True)
    assert [e for e in exports if e.startswith("mmt4d")] == ["mmt4d_3x2x36x16x16x1_f32"]
    rng = np.random.default_rng(4)
    a = rng.standard_normal(a_shape, dtype=np.float32)
    b = rng.standard_normal(b_shape, dtype=np.float32)
    expected = (a.T if lhs_t else a) @ (b.T if rhs_t else b)
    module = ireelab.compile(source, data_tiling=True)
    np.testing.assert_allclose(module.mmt(a, b), expected, rtol=1e-4, atol=1e-4)
