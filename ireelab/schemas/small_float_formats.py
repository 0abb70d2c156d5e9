"""bf16 and the 8-bit floats: their encodings, and the conversions to and from f32.

numba has none of these types. IREE's llvm-cpu backend computes on them in f32 too: its
`ConvertUnsupportedFloatArithPass` extends operands to f32 and truncates results back, and
MLIR's arith emulation turns each `extf` / `truncf` of an 8-bit float into integer bit
operations with round-to-nearest-even (what the runtime's `math.h` does on the host). Each
format here is that emulation for one type: `decode` reads the bits as an f32 value, `encode`
rounds an f32 value to the nearest value of the type, ties to even, with the type's rules for
what it cannot hold (IEEE-like types overflow to infinity; the `FN` and `FNUZ` types have no
infinity and give NaN; `FNUZ` types have no -0). The 4-bit `f4E2M1FN` has neither infinity nor
NaN: as MLIR's arith expansion clamps to +-6 before converting, a value too large (or NaN)
saturates. `f8E8M0FNU` (the MX formats' scale: an exponent only, `2**(bits - 127)`, 0xFF NaN)
converts as MLIR's expansion does too: `extf` shifts the bits into an f32's exponent, `truncf`
keeps the exponent field of the f32 (no rounding, the sign dropped).

The conversions are Python source, compiled by numba into every kernel module that uses them
and executed as plain Python where the compiler needs a value (constants).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class SmallFloat:
    mlir: str
    """The MLIR spelling: `bf16`, `f8E5M2`, ..."""
    exponent_bits: int
    mantissa_bits: int
    bias: int
    kind: str
    """`ieee` (infinity, NaNs, -0), `fn` (NaN only at all-ones, -0), `fnuz` (NaN is -0's
    pattern, no infinity, no -0), `finite` (no infinity, no NaN: saturates; -0)."""

    @property
    def width(self) -> int:
        return 1 + self.exponent_bits + self.mantissa_bits

    @property
    def key(self) -> str:
        return self.mlir.lower()

    @property
    def sign_bit(self) -> int:
        return 1 << (self.width - 1)

    @property
    def max_code(self) -> int:
        """The largest finite magnitude's bits."""
        all_ones = (1 << (self.width - 1)) - 1
        if self.kind == "ieee":
            return ((1 << self.exponent_bits) - 1) * (1 << self.mantissa_bits) - 1
        return all_ones - 1 if self.kind == "fn" else all_ones

    @property
    def nan(self) -> int:
        """The bits a NaN converts to (for `finite`, MLIR's clamp makes it the maximum)."""
        if self.kind == "finite":
            return self.max_code
        if self.kind == "fnuz":
            return self.sign_bit
        if self.kind == "fn":
            return self.sign_bit - 1
        return self.max_code + 1 + (1 << (self.mantissa_bits - 1))

    @property
    def overflow(self) -> int:
        """The bits of a value too large for the type (infinity or NaN; without the sign,
        which `fnuz` types do not give their one NaN)."""
        if self.kind in ("fnuz", "finite"):
            return self.nan
        return self.max_code + 1 if self.kind == "ieee" else self.nan & (self.sign_bit - 1)

    @property
    def storage(self) -> str:
        return f"np.uint{max(8, self.width)}"


FORMATS: dict[str, SmallFloat | ExponentFloat] = {
    f.mlir: f
    for f in (
        SmallFloat("bf16", 8, 7, 127, "ieee"),
        SmallFloat("f8E5M2", 5, 2, 15, "ieee"),
        SmallFloat("f8E4M3FN", 4, 3, 7, "fn"),
        SmallFloat("f8E5M2FNUZ", 5, 2, 16, "fnuz"),
        SmallFloat("f8E4M3FNUZ", 4, 3, 8, "fnuz"),
        SmallFloat("f4E2M1FN", 2, 1, 1, "finite"),
    )
}
"""The small float types ireelab computes on, by MLIR spelling."""

_DECODE = """\
def _{key}_to_f32(bits):
    b = np.int64(bits)
    negative = (b >> {sign_shift}) & 1
    e = (b >> {m}) & {e_mask}
    f = b & {m_mask}
{special}    if e == 0:
        v = f * {subnormal_scale}
    else:
        v = ({implicit} + f) * 2.0 ** (e - {normal_shift})
    return np.float32(-v if negative else v)
"""

_ENCODE = """\
def _f32_to_{key}(x):
    v = np.float64(x)
    if v != v:
        return {storage}({nan})
    s = {sign_bit} if math.copysign(1.0, v) < 0.0 else 0
    a = abs(v)
    if a == math.inf:
        return {storage}({overflow_sign}{overflow})
    if a < {min_normal}:
        code = int(np.rint(a * {subnormal_inverse}))
    else:
        mantissa, exponent = math.frexp(a)
        code = (exponent + {exponent_offset}) * {implicit} + int(np.rint(mantissa * {twice_implicit}))
    if code > {max_code}:
        return {storage}({overflow_sign}{overflow})
{zero_sign}    return {storage}(s | code)
"""


def _special(f: SmallFloat) -> str:
    emax = (1 << f.exponent_bits) - 1
    if f.kind == "ieee":
        return (
            f"    if e == {emax}:\n"
            f"        return np.float32((-math.inf if negative else math.inf) if f == 0 "
            f"else math.nan)\n"
        )
    if f.kind == "fn":
        return f"    if e == {emax} and f == {(1 << f.mantissa_bits) - 1}:\n        return np.float32(math.nan)\n"
    if f.kind == "finite":
        return ""
    return f"    if b == {f.sign_bit}:\n        return np.float32(math.nan)\n"


@dataclass(frozen=True)
class ExponentFloat:
    """`f8E8M0FNU`: eight exponent bits, no sign, no mantissa (the MX formats' scales)."""

    mlir: str = "f8E8M0FNU"
    width: int = 8
    storage: str = "np.uint8"
    bias: int = 127

    @property
    def key(self) -> str:
        return self.mlir.lower()


F8E8M0FNU = ExponentFloat()
FORMATS[F8E8M0FNU.mlir] = F8E8M0FNU

_DECODE_EXPONENT = """\
def _{key}_to_f32(bits):
    b = np.int64(bits) & 255
    if b == 255:
        return np.float32(math.nan)
    return np.float32(2.0 ** (b - {bias}))
"""

_ENCODE_EXPONENT = """\
def _f32_to_{key}(x):
    v = np.float32(x)
    if v != v or abs(v) == math.inf:
        return np.uint8(255)
    if v == 0.0:
        return np.uint8(0)
    mantissa, exponent = math.frexp(abs(np.float64(v)))
    return np.uint8(max(exponent - 1 + {bias}, 0))
"""


@cache
def decode_source(f: SmallFloat | ExponentFloat) -> str:
    if isinstance(f, ExponentFloat):
        return _DECODE_EXPONENT.format(key=f.key, bias=f.bias)
    m = f.mantissa_bits
    return _DECODE.format(
        key=f.key,
        sign_shift=f.width - 1,
        m=m,
        e_mask=(1 << f.exponent_bits) - 1,
        m_mask=(1 << m) - 1,
        special=_special(f),
        subnormal_scale=repr(2.0 ** (1 - f.bias - m)),
        implicit=1 << m,
        normal_shift=f.bias + m,
    )


@cache
def encode_source(f: SmallFloat | ExponentFloat) -> str:
    if isinstance(f, ExponentFloat):
        # the f32's biased exponent field; an f32 subnormal's field is 0
        return _ENCODE_EXPONENT.format(key=f.key, bias=f.bias)
    m = f.mantissa_bits
    # frexp gives a = mantissa * 2**exponent with mantissa in [0.5, 1): the unbiased exponent
    # is exponent - 1, and mantissa * 2**(m + 1) is the significand with its implicit bit,
    # rounded to nearest even; a carry into the next exponent falls out of the sum.
    return _ENCODE.format(
        key=f.key,
        storage=f.storage,
        nan=f.nan,
        sign_bit=f.sign_bit,
        overflow_sign="" if f.kind == "fnuz" else "s | ",
        overflow=f.overflow,
        min_normal=repr(2.0 ** (1 - f.bias)),
        subnormal_inverse=repr(2.0 ** (f.bias - 1 + m)),
        exponent_offset=f.bias - 2,
        implicit=1 << m,
        twice_implicit=1 << (m + 1),
        max_code=f.max_code,
        zero_sign="    if code == 0:\n        s = 0\n" if f.kind == "fnuz" else "",
    )


def decode_name(f: SmallFloat) -> str:
    return f"_{f.key}_to_f32"


def encode_name(f: SmallFloat) -> str:
    return f"_f32_to_{f.key}"


@cache
def _python(f: SmallFloat):
    import math

    import numpy as np

    namespace = {"np": np, "math": math}
    exec(decode_source(f) + "\n" + encode_source(f), namespace)  # noqa: S102 - our own text
    return namespace[decode_name(f)], namespace[encode_name(f)]


def decode(f: SmallFloat, bits: int) -> float:
    return float(_python(f)[0](bits))


def encode(f: SmallFloat, value: float) -> int:
    return int(_python(f)[1](value))


def round_value(f: SmallFloat, value: float) -> float:
    """`value` as the type holds it (what a constant of the type means)."""
    return decode(f, encode(f, value))
