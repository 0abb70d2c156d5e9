"""`!hal.buffer`: a range of bytes in host memory (IREE's `iree_hal_buffer_t`).

IREE's local devices allocate buffers in host memory; so does ireelab. Storage is a 1-D numpy
`uint8` array; a subspan shares it (offset + length), as IREE's `iree_hal_buffer_subspan`.
"""

from __future__ import annotations

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.native_tasks import data_address


class Buffer:
    __slots__ = ("storage", "offset", "length", "memory_types", "usage", "allocator", "_address")

    def __init__(
        self,
        storage: np.ndarray,
        offset: int = 0,
        length: int | None = None,
        memory_types: int = 0,
        usage: int = 0,
        allocator: object | None = None,
        address: int = 0,
    ):
        self.storage = storage
        self.offset = offset
        self.length = storage.shape[0] - offset if length is None else length
        self.memory_types = memory_types
        self.usage = usage
        self.allocator = allocator
        self._address = address
        """The address of `storage`'s first byte, once known (0 until `address()` asks)."""

    def address(self) -> int:
        """The address of `storage`'s first byte (looked up once per buffer: kernels' C
        entry points take addresses, and a pooled block's buffers get it from the block)."""
        address = self._address
        if not address:
            address = self._address = data_address(self.storage)
        return address

    def bytes(self, offset: int = 0, length: int | None = None) -> np.ndarray:
        """A `uint8` view of `[offset, offset + length)` of this buffer (no copy)."""
        if length is None:
            length = self.length - offset
        if offset < 0 or length < 0 or offset + length > self.length:
            raise HALError(
                f"buffer range [{offset}, {offset + length}) is outside the buffer's "
                f"{self.length} bytes",
                code="OUT_OF_RANGE",
            )
        start = self.offset + offset
        return self.storage[start : start + length]

    def locate(self, offset: int, length: int) -> tuple[Buffer, int]:
        """`(self, start)`: the bytes `bytes(offset, length)` views are
        `storage[start:][:length]`, for code that takes addresses (the same range checks, no
        view made)."""
        if offset < 0 or length < 0 or offset + length > self.length:
            self.bytes(offset, length)  # raises the range error
        return self, self.offset + offset

    def subspan(self, offset: int, length: int) -> Buffer:
        if offset < 0 or length < 0 or offset + length > self.length:
            self.bytes(offset, length)  # raises the range error
        return Buffer(
            self.storage,
            self.offset + offset,
            length,
            self.memory_types,
            self.usage,
            self.allocator,
            self._address,
        )

    def __repr__(self) -> str:
        return f"<hal.buffer {self.length} bytes>"
