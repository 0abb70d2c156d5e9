"""f16 in numba kernels: half-precision bits in memory, f32 in registers.

numba has no half-precision type (any use of a `float16` array fails with
`NotImplementedError: float16`), while LLVM has `half` and x86 converts it in hardware (F16C's
`vcvtph2ps` / `vcvtps2ph`, vectorised). So, as IREE's CPU backend does for f16 on targets without
native half arithmetic:

- a binding, allocation or constant buffer of f16 is viewed as `uint16` (the bits);
- `memref.load` of f16 widens the bits to an f32 register value (`_f16_to_f32`, LLVM's
  `fpext half -> float`), `memref.store` narrows an f32 value to the nearest f16 bits
  (`_f32_to_f16`, `fptrunc`, round to nearest even);
- an SSA value of type f16 lives in an f32 register and always holds a value exactly
  representable in f16: `arith.truncf` to f16 and conversions producing f16 round through
  `_round_to_f16`, `arith.extf` from f16 is then exact;
- arithmetic on f16 never reaches the kernel emitter: `ExpandF16OpToF32Pass` rewrites it to
  extf / f32 op / truncf first, so each op rounds to f16 once, as IEEE half arithmetic does.

The three conversions are numba intrinsics (LLVM instructions numba has no Python spelling
for); a kernel module includes the ones its kernels call.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float16Type
from xdsl.ir import Attribute

F16_STORAGE_DTYPE = "np.uint16"

_HALF_INTRINSICS_HEADER = "from llvmlite import ir as _llvm_ir\n"

INTRINSICS: dict[str, str] = {
    "_f16_to_f32": """\
@numba.extending.intrinsic
def _f16_to_f32(typingctx, bits):
    # uint16 bits of an IEEE half -> float32 (exact)
    def codegen(context, builder, signature, args):
        half = builder.bitcast(args[0], _llvm_ir.HalfType())
        return builder.fpext(half, _llvm_ir.FloatType())

    if bits != numba.types.uint16:
        return None
    return numba.types.float32(bits), codegen
""",
    "_f32_to_f16": """\
@numba.extending.intrinsic
def _f32_to_f16(typingctx, value):
    # float32 / float64 -> uint16 bits of the nearest half (to nearest even; inf on overflow)
    def codegen(context, builder, signature, args):
        half = builder.fptrunc(args[0], _llvm_ir.HalfType())
        return builder.bitcast(half, _llvm_ir.IntType(16))

    if value not in (numba.types.float32, numba.types.float64):
        return None
    return numba.types.uint16(value), codegen
""",
    "_round_to_f16": """\
@numba.extending.intrinsic
def _round_to_f16(typingctx, value):
    # float32 / float64 -> float32 holding the nearest half value (arith.truncf to f16)
    def codegen(context, builder, signature, args):
        half = builder.fptrunc(args[0], _llvm_ir.HalfType())
        return builder.fpext(half, _llvm_ir.FloatType())

    if value not in (numba.types.float32, numba.types.float64):
        return None
    return numba.types.float32(value), codegen
""",
}
"""Module-level source of each f16 intrinsic (each needs `INTRINSICS_PRELUDE` first)."""

INTRINSICS_PRELUDE = _HALF_INTRINSICS_HEADER
"""The import the intrinsics' code generators use."""


def is_f16(t: Attribute) -> bool:
    return isinstance(t, Float16Type)


def storage_dtype(t: Attribute, register_dtype: str) -> str:
    """The numpy dtype (as Python text) a buffer of element type `t` is viewed as."""
    if (f := small_float(t)) is not None:
        return f.storage
    return F16_STORAGE_DTYPE if is_f16(t) else register_dtype


def load_expression(t: Attribute, access: str) -> str:
    """The register value read by `access` (an indexing expression) from a buffer of `t`."""
    if (f := small_float(t)) is not None:
        return f"_{f.key}_to_f32({access})"
    return f"_f16_to_f32({access})" if is_f16(t) else access


def store_expression(t: Attribute, value: str) -> str:
    """What to write into a buffer of `t` to store the register value `value`."""
    if (f := small_float(t)) is not None:
        return f"_f32_to_{f.key}({value})"
    return f"_f32_to_f16({value})" if is_f16(t) else value


def round_to_f16(expression: str) -> str:
    """A float32 / float64 expression rounded once to the nearest f16 value (in an f32
    register)."""
    return f"_round_to_f16({expression})"


def f16_value(value: float) -> float:
    """A constant's value as f16 holds it (MLIR rounds `1.1 : f16` when it parses it)."""
    import numpy as np

    return float(np.float16(value))


def intrinsics_used(source: str) -> list[str]:
    """Names of the f16 intrinsics `source` calls, in definition order."""
    return [name for name in INTRINSICS if f"{name}(" in source]


def intrinsics_source(source: str) -> str:
    """The prelude and the definitions of the f16 intrinsics `source` calls ('' if none)."""
    used = intrinsics_used(source)
    if not used:
        return ""
    return "\n\n".join([INTRINSICS_PRELUDE, *(INTRINSICS[name] for name in used)])


# ---- bf16 and the 8-bit floats: bits in memory, f32 in registers, emulated conversions ----


def small_float(t: Attribute):
    """The `SmallFloat` format of `t` (bf16, f8E5M2, ...), or None."""
    from ireelab.schemas.small_float_formats import FORMATS

    return FORMATS.get(str(t))


def is_narrow_float(t: Attribute) -> bool:
    """f16 or a small float: a type held in f32 registers and stored as its bits."""
    return is_f16(t) or small_float(t) is not None


def round_to(t: Attribute, expression: str) -> str:
    """A float expression rounded once to the nearest value of narrow float type `t`."""
    if is_f16(t):
        return round_to_f16(expression)
    from ireelab.schemas import small_float_formats as formats

    f = small_float(t)
    return f"{formats.decode_name(f)}({formats.encode_name(f)}({expression}))"


def constant_value(t: Attribute, value: float) -> float:
    """A constant's value as a narrow float type holds it."""
    if is_f16(t):
        return f16_value(value)
    from ireelab.schemas import small_float_formats as formats

    return formats.round_value(small_float(t), value)


def conversions_source(source: str) -> str:
    """njit definitions of the small-float conversions `source` calls ('' if none)."""
    from ireelab.schemas import small_float_formats as formats

    parts = []
    for f in formats.FORMATS.values():
        for name, text in (
            (formats.decode_name(f), formats.decode_source(f)),
            (formats.encode_name(f), formats.encode_source(f)),
        ):
            if f"{name}(" in source:
                parts.append(
                    "@numba.njit(inline='always', cache=True, error_model='numpy')\n" + text
                )
    return "\n\n".join(parts)
