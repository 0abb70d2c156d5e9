"""Buffer views as text, the way IREE's tools read and print them
(`runtime/src/iree/hal/string_util.c` and `iree/tooling/function_io.c`).

Inputs: `2x4xf32=1.5` (splat), `2x4xf32=1 2 3 4 5 6 7 8` or `=[1 2 3 4][5 6 7 8]` (every
element), `f32=3.5` (a scalar), `@a.npy` (numpy file), `2x4xf32=@raw.bin` (raw bytes).
Outputs: `2x2xf32=[22 28][49 64]`, floats with C's `%G`, at most `max_elements` elements, the
rest elided as IREE does (`[7 7...][...]`).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime.hal import element_types

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
    count = int(np.prod(shape, dtype=np.int64))
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
        values = [_parse_scalar(t, element) for t in tokens]
    except ValueError:
        raise RuntimeInputError(f"`{spec}`: cannot parse the values as {element}") from None
    if len(values) == 1:
        return np.full(shape, values[0], dtype=dtype)
    if len(values) != count:
        raise RuntimeInputError(f"`{spec}`: {len(values)} values given for {count} elements")
    return np.array(values, dtype=dtype).reshape(shape)


def _parse_scalar(token: str, element: str) -> float | int | bool:
    if element.startswith("f") or element == "bf16":
        return float(token)
    if element == "i1":
        return bool(int(token))
    return int(token, 0)


def _format_scalar(value, is_float: bool) -> str:
    if is_float:
        return f"{float(value):G}"
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
