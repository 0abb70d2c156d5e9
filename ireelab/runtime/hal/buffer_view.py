"""`!hal.buffer_view`: a buffer plus shape, element type and encoding (IREE's
`iree_hal_buffer_view_t`): what crosses the ABI of every exported function.
"""

from __future__ import annotations

import math

import numpy as np

from ireelab.runtime.hal.buffer import Buffer
from ireelab.schemas import hal_element_types as element_types

_DTYPES: dict[int, np.dtype] = {}
"""Element type code -> dtype, for the codes `to_numpy` has seen (results come back on every
call; the lookup through the MLIR name is slower)."""


class BufferView:
    __slots__ = ("buffer", "shape", "element_type", "encoding_type")

    def __init__(
        self,
        buffer: Buffer,
        shape: tuple[int, ...],
        element_type: int,
        encoding_type: int = element_types.DENSE_ROW_MAJOR,
    ):
        self.buffer = buffer
        self.shape = shape
        self.element_type = element_type
        self.encoding_type = encoding_type

    @property
    def dtype(self) -> np.dtype:
        dtype = element_types.dtype_of_code(self.element_type)
        _DTYPES[self.element_type] = dtype
        return dtype

    def to_numpy(self) -> np.ndarray:
        """The contents as an array sharing the buffer's memory."""
        dtype = _DTYPES.get(self.element_type) or self.dtype
        buffer = self.buffer
        size = math.prod(self.shape) * dtype.itemsize
        if size > buffer.length:
            buffer.bytes(0, size)  # raises OUT_OF_RANGE
        return np.ndarray(self.shape, dtype, buffer.storage, buffer.offset)

    def type_string(self) -> str:
        """`2x4xf32` as IREE's tools spell a buffer view's type."""
        element = element_types.CODE_TO_MLIR.get(self.element_type, f"0x{self.element_type:08X}")
        return "x".join([*(str(d) for d in self.shape), element])

    def __repr__(self) -> str:
        return f"<hal.buffer_view {self.type_string()}>"


def from_numpy(array: np.ndarray, allocator, element_type: int | None = None) -> BufferView:
    """Wrap a numpy array as a buffer view; no copy when it is C-contiguous, aligned and
    writeable (what kernels may be handed)."""
    if not array.flags.carray:
        array = np.array(array, order="C", copy=True)
    if element_type is None:
        element_type = element_types.MLIR_TO_CODE[element_types.mlir_of_dtype(array.dtype)]
    storage = np.frombuffer(array, np.uint8) if array.size else np.empty(0, np.uint8)
    return BufferView(allocator.wrap(storage), array.shape, element_type)
