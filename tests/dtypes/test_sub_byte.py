"""Sub-byte types end to end. i2 / i4: an f32 input narrowed to i4 (or i2) in one dispatch, kept
packed in memory by an optimization barrier, and widened again in the next, against numpy's
reading of the same bits (exact), and against the real IREE where it is installed (exact).
f4E2M1FN with an f8E8M0FNU scale (`arith.scaling_truncf` / `scaling_extf`): against ml_dtypes'
float4_e2m1fn of x / scale, and against the real IREE (exact)."""

from __future__ import annotations

import numpy as np
import pytest

import ireelab

N = 4096 + 8  # more than one workgroup's tile of the reading dispatch; whole bytes of i2

PROGRAM = """
func.func @narrow(%x: tensor<{n}xf32>) -> (tensor<{n}xi8>, tensor<{n}xi8>) {{
  %e = tensor.empty() : tensor<{n}x{t}>
  %narrow = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                            iterator_types = ["parallel"]}}
      ins(%x : tensor<{n}xf32>) outs(%e : tensor<{n}x{t}>) {{
  ^bb0(%in: f32, %o: {t}):
    %i = arith.fptosi %in : f32 to i32
    %t = arith.trunci %i : i32 to {t}
    linalg.yield %t : {t}
  }} -> tensor<{n}x{t}>
  %kept = util.optimization_barrier %narrow : tensor<{n}x{t}>
  %e8 = tensor.empty() : tensor<{n}xi8>
  %s, %u = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}}
      ins(%kept : tensor<{n}x{t}>) outs(%e8, %e8 : tensor<{n}xi8>, tensor<{n}xi8>) {{
  ^bb0(%in: {t}, %o0: i8, %o1: i8):
    %a = arith.extsi %in : {t} to i8
    %b = arith.extui %in : {t} to i8
    linalg.yield %a, %b : i8, i8
  }} -> (tensor<{n}xi8>, tensor<{n}xi8>)
  return %s, %u : tensor<{n}xi8>, tensor<{n}xi8>
}}
"""


def _expected(x: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    unsigned = x.astype(np.int64) & ((1 << bits) - 1)
    signed = unsigned - ((unsigned >> (bits - 1)) << bits)
    return signed.astype(np.int8), unsigned.astype(np.int8)


def _input(n: int = N) -> np.ndarray:
    return np.random.default_rng(4).integers(-40, 40, n).astype(np.float32)


@pytest.mark.parametrize("element", ["i4", "i2"])
def test_narrow_and_widen_match_numpy(element):
    module = ireelab.compile(PROGRAM.format(n=N, t=element), device="local-task")
    x = _input()
    signed, unsigned = (np.asarray(r) for r in module.narrow(x))
    want_signed, want_unsigned = _expected(x, int(element[1:]))
    np.testing.assert_array_equal(signed, want_signed)
    np.testing.assert_array_equal(unsigned, want_unsigned)


def test_packed_sizes_in_the_stream_stage():
    # the i4 tensor between the dispatches takes 4104 * 4 / 8 = 2052 bytes (IREE's
    # stream.tensor.sizeof of a packed type), the i2 one 1026
    for element, size in (("i4", 2052), ("i2", 1026)):
        stream = ireelab.compile(PROGRAM.format(n=N, t=element), compile_to="stream").ir()
        assert f"wo %5[%c0 for %c{size}] : !stream.resource<transient>{{%c{size}}}" in stream


@pytest.mark.iree
@pytest.mark.parametrize("element", ["i4", "i2"])
def test_matches_real_iree(element, iree_call):
    # 4096 elements: IREE 3.13 on this CPU cannot lower the masked i4 vector loads a size
    # that is no multiple of its vector length needs ("failed to emulate bit width")
    source = PROGRAM.format(n=4096, t=element)
    x = _input(4096)
    theirs = iree_call(source, "narrow", x)
    ours = [np.asarray(r) for r in ireelab.compile(source).narrow(x)]
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)


MX = """
func.func @mx(%x: tensor<64xf32>) -> (tensor<64xi8>, tensor<64xf32>) {
  %e8 = tensor.empty() : tensor<64xi8>
  %e32 = tensor.empty() : tensor<64xf32>
  %bits, %back = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                                iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e8, %e32 : tensor<64xi8>, tensor<64xf32>) {
  ^bb0(%in: f32, %o0: i8, %o1: f32):
    %s = arith.constant 0.25 : f8E8M0FNU
    %f4 = arith.scaling_truncf %in, %s : f32, f8E8M0FNU to f4E2M1FN
    %i4 = arith.bitcast %f4 : f4E2M1FN to i4
    %b = arith.extui %i4 : i4 to i8
    %w = arith.scaling_extf %f4, %s : f4E2M1FN, f8E8M0FNU to f32
    linalg.yield %b, %w : i8, f32
  } -> (tensor<64xi8>, tensor<64xf32>)
  return %bits, %back : tensor<64xi8>, tensor<64xf32>
}
"""


def _mx_input() -> np.ndarray:
    # ties, subnormal-range values and values past the saturation point (6 * 0.25)
    rng = np.random.default_rng(5)
    return np.concatenate([np.arange(-16, 16) / 16, rng.uniform(-3, 3, 32)]).astype(np.float32)


def test_microscaling_round_trip_matches_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = _mx_input()
    bits, back = (np.asarray(r) for r in ireelab.compile(MX).mx(x))
    want = (x / np.float32(0.25)).astype(ml_dtypes.float4_e2m1fn)  # no NaN among the inputs
    np.testing.assert_array_equal(bits, want.view(np.uint8).astype(np.int8))
    np.testing.assert_array_equal(back, want.astype(np.float32) * np.float32(0.25))


def _three_quarters(x: np.ndarray) -> np.ndarray:
    return np.abs(x / np.float32(0.25)) == 0.75


@pytest.mark.iree
def test_microscaling_matches_real_iree(iree_call):
    x = _mx_input()
    theirs = iree_call(MX, "mx", x)
    ours = [np.asarray(r) for r in ireelab.compile(MX).mx(x)]
    kept = ~_three_quarters(x)  # IREE's one wrong answer: below
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a[kept], b[kept])


@pytest.mark.iree
@pytest.mark.xfail(
    strict=True,
    reason="IREE 3.13 (llvm-cpu) truncates 0.75 to f4E2M1FN 0.0; the nearest values are 0.5 "
    "and 1.0, and ties-to-even (ml_dtypes, MLIR's arith expansion, ireelab) gives 1.0",
)
def test_real_iree_rounds_three_quarters_to_f4_one(iree_call):
    x = _mx_input()
    bits = iree_call(MX, "mx", x)[0]
    assert set(np.abs(bits[_three_quarters(x)].astype(np.int8) % 8)) == {2}
