"""Float elements of a dense literal as MLIR reads them: bytes of the element type.

MLIR's parser (`TensorLiteralParser` over `APFloat`) gives a float tensor literal two meanings
xDSL's does not: a hexadecimal element is the bit pattern of the value (`dense<0xFF800000> :
tensor<4xf32>` is four -inf, as IREE's importers write infinities and NaNs), and a decimal
element rounds to the nearest value of the type, to infinity past its largest (`70000.0` as
f16). xDSL reads the hex digits as a number and refuses an f16 overflow; `source.py` hands
such literals here instead.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type
from xdsl.ir import Attribute

from ireelab.schemas import small_float_formats

_NUMPY = {Float16Type: "float16", Float32Type: "float32", Float64Type: "float64"}


def is_hex(text: str) -> bool:
    return text.lower().startswith(("0x", "-0x"))


def handles(element_type: Attribute, texts: list[str]) -> bool:
    """Whether MLIR's reading of these elements differs from xDSL's: any hex element of a
    float type, or an f16 (whose decimal literals may round to infinity)."""
    small = str(element_type) in small_float_formats.FORMATS
    if type(element_type) not in _NUMPY and not small:
        return False
    return isinstance(element_type, Float16Type) or any(is_hex(t) for t in texts)


def hex_bits(text: str, element_type: Attribute) -> int:
    """The bit pattern a hex element spells; ValueError if the type cannot hold it."""
    if text.startswith("-"):
        raise ValueError(f"hexadecimal float literal {text} cannot have a sign")
    if int(text, 16) >= 1 << element_type.bitwidth:
        raise ValueError(f"hexadecimal float literal {text} does not fit in {element_type}")
    return int(text, 16)


def element_bytes(element_type: Attribute, bits: list[int | None], values: list[float]) -> bytes:
    """Little-endian bytes of the elements: `bits` holds each hex element's pattern (None
    for a decimal one), `values` xDSL's numbers for all of them."""
    import numpy as np

    unsigned = np.dtype(f"<u{max(1, element_type.bitwidth // 8)}")
    if (f := small_float_formats.FORMATS.get(str(element_type))) is not None:
        decimal = [small_float_formats.encode(f, v) for v in values]
    else:
        with np.errstate(over="ignore"):
            floats = np.array(values, dtype=np.float64).astype(_NUMPY[type(element_type)])
        decimal = floats.view(unsigned).tolist()
    chosen = [d if b is None else b for b, d in zip(bits, decimal, strict=True)]
    return np.array(chosen, dtype=unsigned).tobytes()
