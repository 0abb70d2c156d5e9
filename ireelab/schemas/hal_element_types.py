"""HAL element types: IREE's `iree_hal_element_type_t` codes and their numpy dtypes.

IREE packs an element type in 32 bits as `numerical_type << 24 | bit_count`
(`hal.element_type<f32>` is 0x21000020). The compiler writes these codes into the program
(`hal.buffer_view.assert`, `hal.buffer_view.create`); the runtime decodes them here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

_INTEGER, _SINT, _UINT, _BOOL, _FLOAT, _BFLOAT, _COMPLEX = 0x10, 0x11, 0x12, 0x13, 0x21, 0x22, 0x23


def _code(numerical_type: int, bits: int) -> int:
    return numerical_type << 24 | bits


MLIR_TO_CODE: dict[str, int] = {
    "i1": _code(_BOOL, 8),
    "i8": _code(_INTEGER, 8),
    "i16": _code(_INTEGER, 16),
    "i32": _code(_INTEGER, 32),
    "i64": _code(_INTEGER, 64),
    "si8": _code(_SINT, 8),
    "si16": _code(_SINT, 16),
    "si32": _code(_SINT, 32),
    "si64": _code(_SINT, 64),
    "ui8": _code(_UINT, 8),
    "ui16": _code(_UINT, 16),
    "ui32": _code(_UINT, 32),
    "ui64": _code(_UINT, 64),
    "f16": _code(_FLOAT, 16),
    "f32": _code(_FLOAT, 32),
    "f64": _code(_FLOAT, 64),
    "bf16": _code(_BFLOAT, 16),
    "complex<f32>": _code(_COMPLEX, 64),
    "complex<f64>": _code(_COMPLEX, 128),
    "f8E5M2": _code(0x24, 8),
    "f8E4M3FN": _code(0x25, 8),
    "f8E5M2FNUZ": _code(0x26, 8),
    "f8E4M3FNUZ": _code(0x27, 8),
    "f8E8M0FNU": _code(0x28, 8),
    "i4": _code(_INTEGER, 4),
}
"""MLIR element type spelling -> HAL element type code."""

CODE_TO_MLIR: dict[int, str] = {}
for _name, _value in MLIR_TO_CODE.items():
    CODE_TO_MLIR.setdefault(_value, _name)
CODE_TO_MLIR[_code(_INTEGER, 1)] = "i1"

_DTYPE_NAMES = {
    "i1": "bool",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "si8": "int8",
    "si16": "int16",
    "si32": "int32",
    "si64": "int64",
    "ui8": "uint8",
    "ui16": "uint16",
    "ui32": "uint32",
    "ui64": "uint64",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "complex<f32>": "complex64",
    "complex<f64>": "complex128",
}
"""MLIR element type -> numpy dtype name. The dtypes themselves are made on first use, so
the compiler (which needs only the codes) does not import numpy."""

_DTYPES: dict[str, np.dtype] = {}
_DTYPE_TO_MLIR: dict[np.dtype, str] = {}


def _fill_dtypes() -> None:
    """Both tables at once (each filled by one `update`, `_DTYPES` last: a thread that sees
    it filled sees the other too)."""
    import numpy as np

    dtypes = {mlir: np.dtype(name) for mlir, name in _DTYPE_NAMES.items()}
    # signless for signed ints, as IREE's tools print
    back = {d: m for m, d in reversed(dtypes.items()) if not m.startswith("si")}
    _DTYPE_TO_MLIR.update(back)
    _DTYPES.update(dtypes)


DENSE_ROW_MAJOR = 1
"""`hal.encoding_type<dense_row_major>`."""


_ML_DTYPES = {
    "bf16": "bfloat16",
    "f8E5M2": "float8_e5m2",
    "f8E4M3FN": "float8_e4m3fn",
    "f8E5M2FNUZ": "float8_e5m2fnuz",
    "f8E4M3FNUZ": "float8_e4m3fnuz",
    "f8E8M0FNU": "float8_e8m0fnu",
}
"""bf16 and the 8-bit floats as `ml_dtypes` names them (numpy's own dtypes lack them; the
package comes with jax, and is imported only when such an array is made)."""


def _ml_dtypes() -> dict[str, np.dtype]:
    import numpy as np

    try:
        import ml_dtypes
    except ImportError:
        return {}
    return {name: np.dtype(getattr(ml_dtypes, attr)) for name, attr in _ML_DTYPES.items()}


def dtype_of(mlir_type: str) -> np.dtype:
    """numpy dtype for an MLIR element type (`f32`, `i32`, ...); KeyError if unsupported."""
    if not _DTYPES:
        _fill_dtypes()
    if mlir_type in _ML_DTYPES and mlir_type not in _DTYPES:
        _add_ml_dtypes()
    return _DTYPES[mlir_type]


def _add_ml_dtypes() -> None:
    for name, dtype in _ml_dtypes().items():
        _DTYPES[name] = dtype
        _DTYPE_TO_MLIR[dtype] = name


def mlir_of_dtype(dtype: np.dtype) -> str:
    """MLIR spelling of a numpy dtype (signless for signed ints, as IREE's tools print)."""
    import numpy as np

    if not _DTYPES:
        _fill_dtypes()
    if np.dtype(dtype) not in _DTYPE_TO_MLIR:
        _add_ml_dtypes()
    return _DTYPE_TO_MLIR[np.dtype(dtype)]


def dtype_of_code(code: int) -> np.dtype:
    if not _DTYPES:
        _fill_dtypes()
    name = CODE_TO_MLIR.get(code)
    if name is None:
        raise KeyError(f"unsupported HAL element type 0x{code:08X}")
    try:
        return dtype_of(name)
    except KeyError:
        raise KeyError(f"unsupported HAL element type 0x{code:08X}") from None


def same_element_type(expected: int, actual: int) -> bool:
    """IREE treats signless integers as matching signed/unsigned ones of the same width."""
    if expected == actual:
        return True
    if expected & 0xFF != actual & 0xFF:
        return False
    kinds = {expected >> 24, actual >> 24}
    return kinds <= {_INTEGER, _SINT, _UINT}
