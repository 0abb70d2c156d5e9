"""What each integer instruction computes: two's-complement i32/i64 on Python ints; and the
f32 extension's arithmetic and bitcasts.

IREE's VM interpreter (`iree/vm/bytecode/dispatch.c` with `ops.h`) defines these on C integers;
here registers hold Python ints kept in signed range, so every result is wrapped. An f32
register holds a Python float that is exactly an f32 value (every result is rounded to f32).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable

import numpy as np

from ireelab.runtime.errors import VMError

M32, M64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


def wrap32(x: int) -> int:
    return ((x + 0x80000000) & M32) - 0x80000000


def wrap64(x: int) -> int:
    return ((x + 0x8000000000000000) & M64) - 0x8000000000000000


def _div(a: int, b: int) -> int:
    if b == 0:
        raise VMError("INVALID_ARGUMENT; integer division by zero")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _rem(a: int, b: int) -> int:
    return a - b * _div(a, b)


def binary(op: str, width: int) -> Callable[[int, int], int]:
    """The function of `vm.<op>.i<width>[.s|.u]` on two register values. (`div.s` of two
    non-negative values, a workgroup count's `ceildiv`, is floor division in range: no helper
    calls.)"""
    wrap, mask = (wrap32, M32) if width == 32 else (wrap64, M64)
    shift = width - 1
    table: dict[str, Callable[[int, int], int]] = {
        "add": lambda a, b: wrap(a + b),
        "sub": lambda a, b: wrap(a - b),
        "mul": lambda a, b: wrap(a * b),
        "div.s": lambda a, b: a // b if a >= 0 and b > 0 else wrap(_div(a, b)),
        "div.u": lambda a, b: wrap(_div(a & mask, b & mask)),
        "rem.s": lambda a, b: wrap(_rem(a, b)),
        "rem.u": lambda a, b: wrap(_rem(a & mask, b & mask)),
        "and": lambda a, b: a & b,
        "or": lambda a, b: a | b,
        "xor": lambda a, b: a ^ b,
        "shl": lambda a, b: wrap(a << (b & shift)),
        "shr.s": lambda a, b: a >> (b & shift),
        "shr.u": lambda a, b: wrap((a & mask) >> (b & shift)),
        "min.s": min,
        "max.s": max,
        "min.u": lambda a, b: a if (a & mask) <= (b & mask) else b,
        "max.u": lambda a, b: a if (a & mask) >= (b & mask) else b,
    }
    return table[op]


def _wrapped(width: int, body: str, operand: bool = False) -> str:
    """`body` wrapped to signed `width` bits, as an expression. The range check comes first:
    a host's size math (dims times element sizes, workgroup counts) stays in range, and two
    small-int comparisons cost less than the wrap's three big-int operations. `operand`: `body`
    is a bare register (read twice, not computed twice); else the value is named `w`, a name
    no register, block index or namespace entry of the translated code takes."""
    half, mask = 1 << (width - 1), (1 << width) - 1
    value = body if operand else "w"
    checked = body if operand else f"(w := {body})"
    return f"({value} if {-half} <= {checked} <= {half - 1} else (({value} + {half}) & {mask}) - {half})"


def expression(op: str, width: int, a: str, b: str) -> str | None:
    """`binary(op, width)` or `compare(op, width)` as one Python expression on the register
    names `a` and `b`, for the ops that need no helper (no division by zero to raise): the
    translator writes it in place of a call, so the host's size and workgroup-count math
    (dims times element size, `ceildiv`, push-constant packing) costs no Python call."""
    shift = width - 1
    wrap = {"add": f"{a} + {b}", "sub": f"{a} - {b}", "mul": f"{a} * {b}"}
    if op in wrap:
        return _wrapped(width, wrap[op])
    if op == "shl":
        return _wrapped(width, f"{a} << ({b} & {shift})")
    plain = {"and": "&", "or": "|", "xor": "^"}
    if op in plain:
        return f"{a} {plain[op]} {b}"
    if op == "shr.s":
        return f"{a} >> ({b} & {shift})"
    if op == "shr.u":
        return _wrapped(width, f"({a} & {(1 << width) - 1}) >> ({b} & {shift})")
    signed = {"eq": "==", "ne": "!=", "lt.s": "<", "lte.s": "<=", "gt.s": ">", "gte.s": ">="}
    if op in signed:
        return f"1 if {a} {signed[op]} {b} else 0"
    return None


def compare(op: str, width: int) -> Callable[[object, object], int]:
    """The function of `vm.cmp.<op>.i<width>[.s|.u]` (or `.ref`): 1 or 0."""
    mask = M32 if width == 32 else M64
    table: dict[str, Callable] = {
        "eq": lambda a, b: int(a == b),
        "ne": lambda a, b: int(a != b),
        "lt.s": lambda a, b: int(a < b),
        "lte.s": lambda a, b: int(a <= b),
        "gt.s": lambda a, b: int(a > b),
        "gte.s": lambda a, b: int(a >= b),
        "lt.u": lambda a, b: int((a & mask) < (b & mask)),
        "lte.u": lambda a, b: int((a & mask) <= (b & mask)),
        "gt.u": lambda a, b: int((a & mask) > (b & mask)),
        "gte.u": lambda a, b: int((a & mask) >= (b & mask)),
    }
    return table[op]


def _f32_bits(x: float) -> int:
    return struct.unpack("<i", struct.pack("<f", x))[0]


def _bits_f32(x: int) -> float:
    return struct.unpack("<f", struct.pack("<i", wrap32(x)))[0]


def _int_f32(x: int) -> float:
    """The f32 nearest to integer `x` (through f64, exact below 2**53), as a Python float."""
    return float(np.float32(float(x)))


def _f32(fn: Callable[[np.float32, np.float32], np.float32]) -> Callable[[float, float], float]:
    def apply(a: float, b: float) -> float:
        with np.errstate(all="ignore"):  # IEEE results (inf, nan), as the C VM computes them
            return float(fn(np.float32(a), np.float32(b)))

    return apply


FLOAT_BINARY: dict[str, Callable[[float, float], float]] = {
    "add.f32": _f32(lambda a, b: a + b),
    "sub.f32": _f32(lambda a, b: a - b),
    "mul.f32": _f32(lambda a, b: a * b),
    "div.f32": _f32(lambda a, b: a / b),
}


def _unordered(fn: Callable[[float, float], bool]) -> Callable[[float, float], int]:
    return lambda a, b: int(math.isnan(a) or math.isnan(b) or fn(a, b))


def _ordered(fn: Callable[[float, float], bool]) -> Callable[[float, float], int]:
    return lambda a, b: int(not (math.isnan(a) or math.isnan(b)) and fn(a, b))


FLOAT_COMPARE: dict[str, Callable[[float, float], int]] = {
    "cmp.eq.f32.o": _ordered(lambda a, b: a == b),
    "cmp.ne.f32.o": _ordered(lambda a, b: a != b),
    "cmp.lt.f32.o": _ordered(lambda a, b: a < b),
    "cmp.lte.f32.o": _ordered(lambda a, b: a <= b),
    "cmp.eq.f32.u": _unordered(lambda a, b: a == b),
    "cmp.ne.f32.u": _unordered(lambda a, b: a != b),
    "cmp.lt.f32.u": _unordered(lambda a, b: a < b),
    "cmp.lte.f32.u": _unordered(lambda a, b: a <= b),
}
"""EXT_F32's compares: 1 or 0; ordered ones are 0 and unordered ones 1 when a value is NaN."""


def _f32_unary(fn: Callable[[np.float32], np.float32]) -> Callable[[float], float]:
    def apply(a: float) -> float:
        with np.errstate(all="ignore"):
            return float(fn(np.float32(a)))

    return apply


def _round_half_away(a: np.float32) -> np.float32:
    """`vm.round.f32` is C's `roundf`: halves away from zero (numpy rounds them to even)."""
    return np.copysign(np.floor(np.abs(a) + np.float32(0.5)), a) if np.isfinite(a) else a


FLOAT_UNARY: dict[str, Callable[[float], float]] = {
    "abs.f32": _f32_unary(np.abs),
    "neg.f32": _f32_unary(np.negative),
    "ceil.f32": _f32_unary(np.ceil),
    "floor.f32": _f32_unary(np.floor),
    "round.f32": _f32_unary(_round_half_away),
    "round.f32.even": _f32_unary(np.rint),
    "sqrt.f32": _f32_unary(np.sqrt),
}


def f32_constant(bits: int) -> float:
    """The value of `vm.const.f32` from the bits its bytecode holds."""
    return _bits_f32(bits)


def _sext(bits: int) -> Callable[[int], int]:
    half, full = 1 << (bits - 1), (1 << bits) - 1
    return lambda a: ((a + half) & full) - half


CASTS: dict[str, Callable[[int], int]] = {
    "ext.i32.i64.s": lambda a: a,
    "ext.i32.i64.u": lambda a: a & M32,
    "trunc.i64.i32": wrap32,
    "ext.i8.i32.s": _sext(8),
    "ext.i8.i32.u": lambda a: a & 0xFF,
    "ext.i16.i32.s": _sext(16),
    "ext.i16.i32.u": lambda a: a & 0xFFFF,
    "trunc.i32.i8": lambda a: a & 0xFF,
    "trunc.i32.i16": lambda a: a & 0xFFFF,
    "bitcast.f32.i32": _f32_bits,
    "bitcast.i32.f32": _bits_f32,
    "cast.si32.f32": lambda a: _int_f32(wrap32(a)),
    "cast.ui32.f32": lambda a: _int_f32(a & M32),
    "cast.si64.f32": lambda a: _int_f32(wrap64(a)),
    "cast.ui64.f32": lambda a: _int_f32(a & M64),
}

CAST_EXPRESSIONS: dict[str, str] = {
    "ext.i32.i64.s": "{a}",
    "ext.i32.i64.u": "{a} & 0xFFFFFFFF",
    "trunc.i64.i32": _wrapped(32, "{a}", operand=True),
}
"""The casts of `CASTS` the translator writes as an expression on register `{a}`."""

STATUS_NAMES = (
    "OK CANCELLED UNKNOWN INVALID_ARGUMENT DEADLINE_EXCEEDED NOT_FOUND ALREADY_EXISTS "
    "PERMISSION_DENIED RESOURCE_EXHAUSTED FAILED_PRECONDITION ABORTED OUT_OF_RANGE "
    "UNIMPLEMENTED INTERNAL UNAVAILABLE DATA_LOSS UNAUTHENTICATED DEFERRED INCOMPATIBLE"
).split()
"""IREE's `iree_status_code_t` names by number (what `vm.fail` / `util.status.check_ok` carry)."""


def status_name(code: int) -> str:
    return STATUS_NAMES[code] if 0 <= code < len(STATUS_NAMES) else f"STATUS_{code}"
