"""`!hal.allocator`: makes buffers for a device (IREE's `iree_hal_allocator_t`, heap flavour)."""

from __future__ import annotations

import numpy as np

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.buffer import Buffer

MAX_ALLOCATION = 1 << 34
"""Refuse absurd sizes with an error rather than an exhausted machine."""


class Allocator:
    def __init__(self, device_name: str):
        self.device_name = device_name

    def allocate(self, memory_types: int, usage: int, size: int) -> Buffer:
        if size < 0 or size > MAX_ALLOCATION:
            raise HALError(f"cannot allocate {size} bytes", code="RESOURCE_EXHAUSTED")
        storage = np.empty(size, dtype=np.uint8)
        return Buffer(storage, 0, size, memory_types, usage, self)

    def wrap(self, storage: np.ndarray, memory_types: int = 0, usage: int = 0) -> Buffer:
        """Import host memory (a 1-D uint8 array) as a buffer without copying."""
        return Buffer(storage, 0, storage.shape[0], memory_types, usage, self)

    def __repr__(self) -> str:
        return f"<hal.allocator {self.device_name}>"
