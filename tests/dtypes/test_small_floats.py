"""bf16 and the 8-bit floats (f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ) end to end: buffers
hold their bits, kernels compute in f32 and round back once per op with the emulated
conversions of `schemas/small_float_formats.py`. The conversions are checked against
`ml_dtypes` (the types numpy programs use, shipped with jax) on every bit pattern and on
random, tie and subnormal f32 values, exactly; programs are checked against ml_dtypes
arithmetic (f32 op, then one rounding), exactly."""

from __future__ import annotations

import numpy as np
import pytest

import ireelab
from ireelab.schemas.small_float_formats import F8E8M0FNU, FORMATS, SmallFloat, decode, encode

ml_dtypes = pytest.importorskip("ml_dtypes")

DTYPES = {
    "bf16": ml_dtypes.bfloat16,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "f4E2M1FN": ml_dtypes.float4_e2m1fn,
}

SIGNED = sorted(n for n, f in FORMATS.items() if isinstance(f, SmallFloat))
"""The formats with a sign and a mantissa (f8E8M0FNU, an exponent only, is tested below)."""
BYTE_WIDE = [n for n in SIGNED if FORMATS[n].width >= 8]
"""Those a public function can take (f4E2M1FN is packed: not at the ABI yet)."""


def _all_values(name: str) -> np.ndarray:
    bits = np.arange(1 << FORMATS[name].width, dtype=np.uint16 if name == "bf16" else np.uint8)
    return bits.view(DTYPES[name]).astype(np.float32)


@pytest.mark.parametrize("name", SIGNED)
def test_decode_matches_ml_dtypes_on_every_pattern(name):
    f, want = FORMATS[name], _all_values(name)
    got = np.array([decode(f, b) for b in range(1 << f.width)], np.float32)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    finite = ~np.isnan(want)
    assert np.array_equal(got[finite].view(np.uint32), want[finite].view(np.uint32))  # -0 too


@pytest.mark.parametrize("name", SIGNED)
def test_encode_rounds_to_nearest_even_as_ml_dtypes(name):
    f, dtype = FORMATS[name], DTYPES[name]
    values = _all_values(name)
    exact = np.unique(values[np.isfinite(values)]).astype(np.float64)
    ties = ((exact[1:] + exact[:-1]) / 2).astype(np.float32)  # exactly halfway in f32
    rng = np.random.default_rng(3)
    info = ml_dtypes.finfo(dtype)
    random = np.concatenate(
        [
            rng.standard_normal(3000) * float(info.max) / 4,
            rng.standard_normal(3000) * float(info.tiny),
        ]
    ).astype(np.float32)
    xs = np.concatenate([exact.astype(np.float32), ties, random])
    xs = xs[np.abs(xs.astype(np.float64)) <= float(info.max)]  # overflow rules differ (below)
    want = xs.astype(dtype).view(np.uint16 if name == "bf16" else np.uint8)
    got = np.array([encode(f, float(x)) for x in xs])
    assert np.array_equal(got, want)


@pytest.mark.parametrize(
    ("name", "value", "bits"),
    [
        ("f8E5M2", 1e6, 0x7C),  # IEEE-like: overflow is infinity
        ("f8E5M2", -1e6, 0xFC),
        ("f8E4M3FN", 1e6, 0x7F),  # no infinity: NaN
        ("f8E4M3FNUZ", -1e6, 0x80),  # the one NaN, no sign
        ("f8E5M2FNUZ", -0.0, 0x00),  # no -0
        ("bf16", float("inf"), 0x7F80),
        ("f4E2M1FN", 7.0, 0x7),  # no infinity, no NaN: saturates at 6 (MLIR's clamp)
        ("f4E2M1FN", -1e6, 0xF),
        ("f4E2M1FN", float("nan"), 0x7),  # MLIR clamps NaN to 6 as well (ml_dtypes: -0)
        ("f4E2M1FN", -0.1, 0x8),
    ],
)
def test_overflow_and_signed_zero_follow_the_type(name, value, bits):
    assert encode(FORMATS[name], value) == bits


PROGRAM = """
func.func @f(%a: tensor<6x{t}>, %b: tensor<6x{t}>) -> (tensor<6x{t}>, tensor<6x{t}>, tensor<6xf32>) {{
  %s = arith.addf %a, %b : tensor<6x{t}>
  %p = arith.mulf %a, %b : tensor<6x{t}>
  %w = arith.extf %p : tensor<6x{t}> to tensor<6xf32>
  return %s, %p, %w : tensor<6x{t}>, tensor<6x{t}>, tensor<6xf32>
}}
"""


@pytest.mark.parametrize("name", BYTE_WIDE)
def test_arithmetic_rounds_once_per_op(name):
    dtype = DTYPES[name]
    a = np.array([0.5, -1.25, 3.0, 10.0, 0.0625, -7.0], np.float32).astype(dtype)
    b = np.array([1.5, 2.0, -0.75, 5.0, 0.03125, 3.5], np.float32).astype(dtype)
    module = ireelab.compile(PROGRAM.format(t=name))
    s, p, w = module.f(a, b)
    wide_a, wide_b = a.astype(np.float32), b.astype(np.float32)
    assert s.dtype == dtype and p.dtype == dtype
    np.testing.assert_array_equal(
        s.astype(np.float32), (wide_a + wide_b).astype(dtype).astype(np.float32)
    )
    np.testing.assert_array_equal(
        p.astype(np.float32), (wide_a * wide_b).astype(dtype).astype(np.float32)
    )
    np.testing.assert_array_equal(w, p.astype(np.float32))


CHAIN = """
func.func @f(%a: tensor<6xbf16>) -> tensor<6xbf16> {
  %one = arith.constant dense<1.0> : tensor<6xbf16>
  %e = math.exp %a : tensor<6xbf16>
  %s = arith.subf %e, %one : tensor<6xbf16>
  return %s : tensor<6xbf16>
}
"""


def test_a_chain_in_one_dispatch_rounds_once_at_its_store():
    """As IREE's type conversion of bf16 does: exp then subtract, both in f32, one rounding
    (for -0.25: -0.2216797; rounding after exp too would give -0.2226562)."""
    a = np.array([-0.25, 0.5, -3.0, 1.0, 0.125, -0.5], np.float32).astype(ml_dtypes.bfloat16)
    got = ireelab.compile(CHAIN).f(a)
    want = (np.exp(a.astype(np.float32)) - np.float32(1)).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))


def test_f8e8m0fnu_is_a_power_of_two_exponent():
    # extf: 2**(bits - 127), 0xFF NaN; truncf: the f32's exponent field, as MLIR expands them
    for bits in range(255):
        assert decode(F8E8M0FNU, bits) == np.float32(2.0 ** (bits - 127))
    assert np.isnan(decode(F8E8M0FNU, 255))
    for value, bits in [(2.0, 128), (3.0, 128), (0.5, 126), (-4.0, 129), (1e-45, 0)]:
        assert encode(F8E8M0FNU, value) == bits
    assert encode(F8E8M0FNU, float("nan")) == 255
