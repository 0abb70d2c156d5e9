"""Buffer views as text, the way IREE's tools read and print them
(`runtime/src/iree/hal/string_util.c` and `iree/tooling/function_io.c`).

Inputs: `2x4xf32=1.5` (splat), `2x4xf32=1 2 3 4 5 6 7 8` or `=[1 2 3 4][5 6 7 8]` (every
element), `f32=3.5` (a scalar), `@a.npy` (numpy file), `2x4xf32=@raw.bin` (raw bytes).
Outputs: `2x2xf32=[22 28][49 64]`, floats with C's `%G`, at most `max_elements` elements, the
rest elided as IREE does (`[7 7...][...]`).

Element types as IREE's tools treat them: integers are read like C's `strtol` with base 0
(`0x10`, `010` octal) and wrap to their width (`i8=200` is -56); f16 is read as f32 and then
rounded to f16; i1 (`hal.element_type<i1>`, one byte per element) has no text form in IREE's
parser, so each element is its byte in two hex digits, read and printed that way
(`4xi1=01 00 01 00`); the element is the byte's low bit, as the compiled code reads it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from ireelab.diagnostics import RuntimeInputError
from ireelab.schemas import hal_element_types as element_types

_TYPE = re.compile(r"^(?P<dims>(?:\d+x)*)(?P<element>[a-z]+\d*)$")


def parse_type(text: str) -> tuple[tuple[int, ...], str]:
    """`2x4xf32` -> ((2, 4), "f32")."""
    match = _TYPE.match(text.strip())
    if match is None:
        raise RuntimeInputError(f"invalid buffer view type `{text}` (expected e.g. 2x4xf32)")
    element = match["element"]
    try:
        element_types.dtype_of(element)
    except KeyError:
        raise RuntimeInputError(f"unsupported element type `{element}` in `{text}`") from None
    dims = tuple(int(d) for d in match["dims"].split("x") if d)
    return dims, element


def _load_npy(path: str, spec: str) -> np.ndarray:
    try:
        value = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise RuntimeInputError(f"input file not found: {path}") from None
    except (OSError, ValueError) as err:
        raise RuntimeInputError(f"cannot read `{spec}` as a .npy file: {err}") from None
    if not isinstance(value, np.ndarray):
        raise RuntimeInputError(f"`{spec}` holds several arrays; pass one .npy array")
    return value


def parse_input(spec: str) -> np.ndarray:
    """One `--input=` value as an array (one-line `RuntimeInputError` when malformed)."""
    if spec.startswith("@"):
        return _load_npy(spec[1:], spec)
    type_text, sep, data = spec.partition("=")
    if not sep:
        raise RuntimeInputError(f"invalid input `{spec}` (expected TYPE=VALUES or @file.npy)")
    shape, element = parse_type(type_text)
    dtype = element_types.dtype_of(element)
    count = math.prod(shape)  # Python ints: a huge shape must not wrap around
    if data.startswith("@"):
        path = Path(data[1:])
        try:
            raw = path.read_bytes()
        except OSError:
            raise RuntimeInputError(f"input file not found: {path}") from None
        if len(raw) != count * dtype.itemsize:
            raise RuntimeInputError(
                f"`{spec}`: file has {len(raw)} bytes, expected {count * dtype.itemsize}"
            )
        return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
    tokens = [t for t in re.split(r"[\s,\[\]]+", data) if t]
    try:
        values = _parse_values(tokens, element, dtype)
    except ValueError:
        hint = " (i1 elements are bytes in two hex digits, e.g. 4xi1=01 00)" * (element == "i1")
        raise RuntimeInputError(f"`{spec}`: cannot parse the values as {element}{hint}") from None
    if len(values) == 1:
        try:
            return np.full(shape, values[0], dtype=dtype)
        except (MemoryError, ValueError):
            size = count * dtype.itemsize
            raise RuntimeInputError(f"`{spec}`: cannot allocate {size} bytes for it") from None
    if len(values) != count:
        raise RuntimeInputError(f"`{spec}`: {len(values)} values given for {count} elements")
    return values.reshape(shape)


def parse_scalar(spec: str, element: str) -> int | float:
    """One `--input=` value for a scalar argument of type `element` (`2.5` for f32, `7` for
    i32), as IREE's tools read it: just the number, no `f32=` prefix (IREE refuses one).
    Integers are read like `strtol` with base 0 and wrap to their width; unlike IREE (which
    reads the leading digits of `7.5` as 7), a value that is not wholly a number is refused."""
    text = spec.strip()
    try:
        if element.startswith("f"):
            return float(np.float32(float(text)))
        bits = 64 if element == "index" else int(element[1:])  # an i64 VM register
        half = 1 << (bits - 1)
        return ((_c_integer(text) + half) & ((1 << bits) - 1)) - half
    except (ValueError, OverflowError):
        raise RuntimeInputError(f"parsing value `{spec}` as {element}") from None


def format_scalar(value: int | float | np.generic, element: str) -> str:
    """A scalar result as `iree-run-module` prints it: `f32=7.5` (C's `%g`), `i32=8`, and
    `i64=8` for an `index` (the i64 VM register it is)."""
    if element == "index":
        element = "i64"
    if element.startswith("f"):
        return f"{element}={float(value):g}"
    return f"{element}={int(value)}"


def _parse_values(tokens: list[str], element: str, dtype: np.dtype) -> np.ndarray:
    if element == "i1":
        return np.array([_hex_byte(t) & 1 for t in tokens], dtype=np.uint8).astype(np.bool_)
    if dtype.kind == "f":
        wide = [float(t) for t in tokens]
        return np.array(wide, np.float32 if dtype.itemsize < 4 else dtype).astype(dtype)
    mask = (1 << (8 * dtype.itemsize)) - 1
    bits = [_c_integer(t) & mask for t in tokens]
    return np.array(bits, dtype=f"uint{8 * dtype.itemsize}").view(dtype)


def _hex_byte(token: str) -> int:
    if len(token) != 2:
        raise ValueError(token)
    return int(token, 16)


def _c_integer(token: str) -> int:
    """`token` as C's `strtol(token, NULL, 0)` reads a whole token (hex, octal, decimal)."""
    sign = -1 if token.startswith("-") else 1
    digits = token.lstrip("+-")
    if digits[:2].lower() == "0x":
        return sign * int(digits[2:], 16)
    if len(digits) > 1 and digits.startswith("0"):
        return sign * int(digits, 8)
    return sign * int(digits, 10)


def _format_scalar(value, is_float: bool) -> str:
    if is_float:
        return f"{float(value):G}"
    if isinstance(value, np.bool_):
        return f"{int(value):02X}"
    return str(int(value))


def format_array(array: np.ndarray, max_elements: int = 1024) -> str:
    """`2x2xf32=[22 28][49 64]`, as `iree-run-module` prints a result buffer view."""
    element = element_types.mlir_of_dtype(array.dtype)
    type_text = "x".join([*(str(d) for d in array.shape), element])
    is_float = array.dtype.kind == "f"
    budget = [max(0, max_elements)]
    if array.ndim == 0:
        return f"{type_text}={_format_scalar(array[()], is_float)}"

    def row(values: np.ndarray) -> str:
        take = min(len(values), budget[0])
        budget[0] -= take
        text = " ".join(_format_scalar(v, is_float) for v in values[:take])
        return text + "..." if take < len(values) else text

    def nested(values: np.ndarray) -> str:
        if values.ndim == 1:
            return row(values)
        return "".join(f"[{nested(sub)}]" for sub in values)

    return f"{type_text}={nested(array)}"
