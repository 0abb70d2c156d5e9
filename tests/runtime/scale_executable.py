"""A one-export executable in plain Python (`target = source * factor`) and float32 buffers,
for the tests of one-shot command buffers made through the `hal` module
(`test_recording_cache.py`, `test_fused_commands.py`)."""

from __future__ import annotations

import numpy as np

from ireelab.runtime.hal.executable import Executable


def _scale(begin, end, x, y, z, source, target, factor):
    """`target = source * factor` over float32, one workgroup per 4-element row."""
    src, dst = source.view(np.float32), target.view(np.float32)
    for row in range(begin, end):
        dst[4 * row : 4 * row + 4] = src[4 * row : 4 * row + 4] * factor


def scale_executable() -> Executable:
    return Executable(["scale"], [_scale])


def float_buffer(hal, values):
    """A buffer of the `hal` module's device holding `values` as float32."""
    data = np.asarray(values, np.float32)
    buffer = hal.device.allocator.allocate(0, 0, data.nbytes)
    buffer.bytes()[:] = data.view(np.uint8)
    return buffer


def floats(buffer) -> np.ndarray:
    return buffer.bytes().view(np.float32).copy()
