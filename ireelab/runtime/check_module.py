"""The `check` module: the runtime side of IREE's `check.expect_*` ops
(`runtime/src/iree/modules/check/module.cc`).

A program compiled from a check test imports `check.expect_true`, `expect_false`,
`expect_all_true`, `expect_eq` and `expect_almost_eq`; a context links them to the functions of
a `CheckModule`. A failed expectation is recorded in `failures` (one message each, worded as
IREE words them, with the operands printed as IREE's tools print buffer views) and the
function goes on, as gtest's non-fatal `ADD_FAILURE` does; `ireelab-check-module` reports
them.

- `expect_eq`: element type, shape and bytes all equal.
- `expect_almost_eq`: same element type and shape, and per element numpy's `isclose` with
  `rhs` as the reference: `lhs == rhs`, or both NaN, or `rhs` finite and
  `|lhs - rhs| <= atol + rtol * |rhs|` (IREE's `iree_math_fuzzy_compare_f64`), compared in
  f64 after widening f16/bf16/the 8-bit floats/f32.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer_view import BufferView
from ireelab.runtime.hal.string_util import format_array
from ireelab.schemas import hal_element_types as element_types
from ireelab.schemas import small_float_formats

_BF16 = element_types.MLIR_TO_CODE["bf16"]
_INTEGER = element_types.MLIR_TO_CODE["i4"] >> 24


def _bytes(view: BufferView) -> bytes:
    """The view's dense bytes: `count * bits / 8`, so packed sub-byte elements (i4: two to a
    byte) are counted as IREE's `iree_hal_element_dense_byte_count` counts them."""
    bits = (view.element_type & 0xFF) or 8
    size = (int(np.prod(view.shape)) * bits + 7) // 8
    return view.buffer.bytes(0, size).tobytes()


def _packed_integers(view: BufferView, bits: int) -> np.ndarray:
    """Sub-byte integers (i4) unpacked, the first in each byte's low bits, sign-extended as
    IREE's tools print the signless type."""
    per_byte, count = 8 // bits, int(np.prod(view.shape))
    raw = np.frombuffer(_bytes(view), np.uint8).astype(np.int16)
    lanes = (raw[:, None] >> (np.arange(per_byte) * bits)) & ((1 << bits) - 1)
    values = lanes.reshape(-1)[:count]
    return (values - ((values >> (bits - 1)) << bits)).astype(np.int8).reshape(view.shape)


def _values(view: BufferView) -> np.ndarray:
    """The elements as numbers (bf16 widened to f32, which numpy lacks)."""
    bits = view.element_type & 0xFF
    if 0 < bits < 8 and view.element_type >> 24 == _INTEGER:
        return _packed_integers(view, bits)
    if view.element_type == _BF16:
        bits = np.frombuffer(_bytes(view), np.uint16).astype(np.uint32) << 16
        return bits.view(np.float32).reshape(view.shape)
    small = small_float_formats.FORMATS.get(element_types.CODE_TO_MLIR.get(view.element_type))
    if small is not None:  # the 8-bit floats: every pattern's value, looked up
        table = np.array([small_float_formats.decode(small, b) for b in range(256)], np.float32)
        return table[np.frombuffer(_bytes(view), np.uint8)].reshape(view.shape)
    return view.to_numpy()


def format_view(view: BufferView) -> str:
    """`2x2xf32=[1 2][3 4]`, as `iree_hal_buffer_view_format` prints (1024 elements at most)."""
    try:
        text = format_array(np.array(_values(view)))  # a copy, rank 0 kept
    except KeyError:
        return f"{view.type_string()}=<{len(_bytes(view))} bytes>"
    if 0 < view.element_type & 0xFF < 8:  # unpacked into int8: the view's own type
        return view.type_string() + text[text.index("=") :]
    return text


def fuzzy_equal(lhs: np.ndarray, rhs: np.ndarray, atol: float, rtol: float) -> np.ndarray:
    """IREE's per-element `iree_math_fuzzy_compare_f64(actual=lhs, expected=rhs)`."""
    lhs, rhs = lhs.astype(np.float64), rhs.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.abs(lhs - rhs) <= atol + rtol * np.abs(rhs)
    return (lhs == rhs) | (np.isnan(lhs) & np.isnan(rhs)) | (np.isfinite(rhs) & close)


def _require_view(value, what: str) -> BufferView:
    if not isinstance(value, BufferView):
        raise HALError(f"check: {what} is not a buffer view", code="INVALID_ARGUMENT")
    return value


def _operands_text(lhs: BufferView, rhs: BufferView) -> str:
    return f"\n  lhs:\n    {format_view(lhs)}\n  rhs:\n    {format_view(rhs)}"


def _mismatch_notes(lhs: BufferView, rhs: BufferView) -> tuple[bool, bool, str]:
    types_eq = lhs.element_type == rhs.element_type
    shapes_eq = tuple(lhs.shape) == tuple(rhs.shape)
    notes = (" Element types do not match." * (not types_eq)) + (
        " Shapes do not match." * (not shapes_eq)
    )
    return types_eq, shapes_eq, notes


class CheckModule:
    """The check module instance of one context: its functions and the failures recorded."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.functions: dict[str, Callable] = {
            "check.expect_true": self.expect_true,
            "check.expect_false": self.expect_false,
            "check.expect_all_true": self.expect_all_true,
            "check.expect_eq": self.expect_eq,
            "check.expect_almost_eq": self.expect_almost_eq,
        }

    def expect_true(self, operand):
        if not operand:
            self.failures.append(f"Expected {operand} to be nonzero.")

    def expect_false(self, operand):
        if operand:
            self.failures.append(f"Expected {operand} to be zero.")

    def expect_all_true(self, device, operand):
        view = _require_view(operand, "operand")
        values = _values(view).reshape(-1)
        zeros = np.flatnonzero(values == 0)
        if zeros.size:
            self.failures.append(
                "Expected all elements to be nonzero; element "
                f"#{int(zeros[0])} is zero.\n  operand:\n    {format_view(view)}"
            )

    def expect_eq(self, device, lhs, rhs):
        lhs, rhs = _require_view(lhs, "lhs"), _require_view(rhs, "rhs")
        _types_eq, _shapes_eq, notes = _mismatch_notes(lhs, rhs)
        if not (_bytes(lhs) == _bytes(rhs)):
            notes += " Contents does not match."
        if notes:
            self.failures.append(
                f"Expected equality of these values.{notes}{_operands_text(lhs, rhs)}"
            )

    def expect_almost_eq(self, device, lhs, rhs, atol, rtol):
        lhs, rhs = _require_view(lhs, "lhs"), _require_view(rhs, "rhs")
        types_eq, shapes_eq, notes = _mismatch_notes(lhs, rhs)
        if types_eq and shapes_eq:
            a, b = _values(lhs).reshape(-1), _values(rhs).reshape(-1)
            if a.dtype.kind != "f":
                raise HALError(
                    f"check.expect_almost_eq: unsupported element type {lhs.type_string()}",
                    code="INVALID_ARGUMENT",
                )
            bad = np.flatnonzero(~fuzzy_equal(a, b, atol, rtol))
            if bad.size:
                i = int(bad[0])
                x, y = float(a[i]), float(b[i])
                notes += (
                    f" Contents does not match to tolerance parameters atol={atol:g}, "
                    f"rtol={rtol:g}. The first failure occurs at index {i} as the lhs value "
                    f"{x:g} differs from the rhs value {y:g} by {y - x:.3e}."
                )
        if notes:
            self.failures.append(
                f"Expected near equality of these values.{notes}{_operands_text(lhs, rhs)}"
            )
