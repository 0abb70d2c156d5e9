"""The target backends ireelab can compile for, as IREE's target registry describes them.

IREE's `llvm-cpu` backend produces `embedded-elf-x86_64` variants; ireelab's `numba-cpu`
produces `numba-python` variants: Python kernel modules that numba compiles on load.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i64

from ireelab.dialects import hal

BACKEND_FORMATS = {"numba-cpu": "numba-python"}
"""Backend name -> the executable format its variants use."""


def executable_target(backend: str) -> hal.ExecutableTargetAttr:
    return hal.ExecutableTargetAttr(
        backend,
        BACKEND_FORMATS[backend],
        {
            "native_vector_size": IntegerAttr(64, i64),
            "target_triple": StringAttr("x86_64-unknown-linux"),
        },
    )


def device_target(backends: tuple[str, ...]) -> hal.DeviceTargetAttr:
    """The `local` device (IREE's CPU device) with one executable target per backend."""
    return hal.DeviceTargetAttr("local", [executable_target(b) for b in backends])
