"""Exported function signatures from IREE's reflection attribute `iree.abi.declaration`
(`sync func @matmul(%input0: tensor<2x4xf32>, %input1: tensor<4x2xf32>) -> (%output0: tensor<2x2xf32>)`),
as `iree-run-module` prints it and as `LoadedModule.invoke` checks its inputs against.

An argument or result is a tensor (a `!hal.buffer_view` at the VM boundary) or, as in IREE, a
scalar that the VM passes in a register (`%input1: f32`): `ScalarSpec` checks a Python or
numpy scalar against its type and turns it into the register value (f32 as a float rounded
to f32, integers wrapped to signed form).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ireelab.schemas import hal_element_types as element_types

_TENSOR = re.compile(r"^tensor<(?P<body>[^<>]*)>$")
_DECL = re.compile(
    r"^(?P<sync>\w+\s+)?func\s+@(?P<name>[^(\s]+)\s*\((?P<args>.*?)\)\s*(->\s*(?P<results>.*))?$"
)


@dataclass(frozen=True)
class TensorSpec:
    name: str
    shape: tuple[int | None, ...]
    """Static dims; None for a dynamic one."""
    element: str
    """MLIR element type (`f32`)."""

    @property
    def dtype(self) -> np.dtype:
        return element_types.dtype_of(self.element)

    @property
    def element_code(self) -> int:
        return element_types.MLIR_TO_CODE[self.element]

    def type_string(self) -> str:
        dims = "".join(f"{'?' if d is None else d}x" for d in self.shape)
        return f"tensor<{dims}{self.element}>"

    def mismatch(self, array: np.ndarray) -> str | None:
        """Why `array` cannot be passed as this argument, or None. A signless integer takes
        signed or unsigned arrays of its width, as IREE's buffer view checks do."""
        if array.dtype != self.dtype and not _signless_match(self.dtype, array.dtype):
            return f"dtype {array.dtype}"
        if len(array.shape) != len(self.shape) or any(
            want is not None and want != have
            for want, have in zip(self.shape, array.shape, strict=False)
        ):
            return f"shape {'x'.join(map(str, array.shape)) or 'scalar'}"
        return None


SCALAR_TYPES = ("i8", "i16", "i32", "i64", "f32", "index")
"""Scalar argument and result types a function can have (what the VM's registers carry; an
`index` is an i64 register, as IREE's 64-bit index target passes it)."""


@dataclass(frozen=True)
class ScalarSpec:
    name: str
    element: str
    """MLIR type (`f32`, `i32`, `i64`, `index`)."""

    @property
    def dtype(self) -> np.dtype:
        return element_types.dtype_of("i64" if self.element == "index" else self.element)

    @property
    def bits(self) -> int:
        return self.dtype.itemsize * 8

    def type_string(self) -> str:
        return self.element

    def mismatch(self, value: object) -> str | None:
        """Why `value` cannot be passed as this argument, or None. Integers take Python or
        numpy integers in the signed or unsigned range of their width (signless, as IREE's
        integers); f32 takes Python or numpy floats and integers."""
        value = _unwrap(value)
        if isinstance(value, np.ndarray):
            return f"an array of shape {'x'.join(map(str, value.shape))}"
        if isinstance(value, bool | np.bool_):
            return "a bool"
        is_int = isinstance(value, int | np.integer)
        if self.dtype.kind == "f":
            return None if is_int or isinstance(value, float | np.floating) else _kind(value)
        if not is_int:
            return _kind(value)
        if not -(1 << (self.bits - 1)) <= int(value) < (1 << self.bits):
            return f"{int(value)}, out of range for {self.element}"
        return None

    def to_register(self, value: object) -> int | float:
        """The register value of a `value` that `mismatch` accepted."""
        value = _unwrap(value)
        if self.dtype.kind == "f":
            with np.errstate(over="ignore"):  # beyond f32's range: inf, as C's cast gives
                return float(np.float32(value))
        return _signed(int(value), self.bits)

    def from_register(self, value: int | float) -> np.generic:
        """A returned register value as a numpy scalar of this type."""
        if self.dtype.kind == "f":
            return np.float32(value)
        return self.dtype.type(_signed(int(value), self.bits))


def _unwrap(value: object) -> object:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


def _kind(value: object) -> str:
    if isinstance(value, float | np.floating):
        return f"a float ({value})"
    return f"a {type(value).__name__}"


def _signed(value: int, bits: int) -> int:
    half = 1 << (bits - 1)
    return ((value + half) & ((1 << bits) - 1)) - half


ArgumentSpec = TensorSpec | ScalarSpec


def _signless_match(signless: np.dtype, given: np.dtype) -> bool:
    return signless.kind == "i" and given.kind == "u" and signless.itemsize == given.itemsize


@dataclass(frozen=True)
class FunctionSignature:
    name: str
    inputs: tuple[ArgumentSpec, ...]
    outputs: tuple[ArgumentSpec, ...]
    declaration: str

    def __str__(self) -> str:
        return self.declaration


def _split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def _tensor(entry: str, default_name: str) -> ArgumentSpec:
    name, _, type_text = entry.partition(":")
    if not type_text:
        name, type_text = default_name, entry
    if type_text.strip() in SCALAR_TYPES:
        return ScalarSpec(name.strip().lstrip("%") or default_name, type_text.strip())
    match = _TENSOR.match(type_text.strip())
    if match is None:
        raise ValueError(f"unsupported ABI type '{type_text.strip()}'")
    *dims, element = match["body"].split("x")
    element_types.dtype_of(element)  # KeyError on an unsupported element type
    shape = tuple(None if d == "?" else int(d) for d in dims)
    return TensorSpec(name.strip().lstrip("%") or default_name, shape, element)


def parse_declaration(text: str) -> FunctionSignature:
    """Parse an `iree.abi.declaration`; ValueError/KeyError when it is not one we support."""
    match = _DECL.match(text.strip())
    if match is None:
        raise ValueError(f"not an ABI declaration: {text!r}")
    results = (match["results"] or "").strip()
    if results.startswith("(") and results.endswith(")"):
        results = results[1:-1]
    inputs = tuple(_tensor(e, f"input{i}") for i, e in enumerate(_split_top_level(match["args"])))
    outputs = tuple(_tensor(e, f"output{i}") for i, e in enumerate(_split_top_level(results)))
    return FunctionSignature(match["name"], inputs, outputs, text.strip())
