"""The HAL driver registry: a device name -> the process-wide device of that driver.

IREE's counterpart is `iree/hal/drivers/` with its driver registry, which sits above every
driver (`local-sync`, `local-task`, ...), so no device module needs to know the others. Here it
keeps `device.py` (what devices share, and `local-sync`) from importing `local_task_device`,
which builds on it. `local-task` is imported on first use: its native task plans pull in numba.
"""

from __future__ import annotations

import threading

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal.device import Device, LocalSyncDevice

DRIVERS = ("local-sync", "local-task")


def create_device(name: str) -> Device:
    if name == "local-sync":
        return LocalSyncDevice(name)
    if name == "local-task":
        from ireelab.runtime.hal.local_task_device import LocalTaskDevice

        return LocalTaskDevice(name)
    raise HALError(
        f"no HAL driver for device '{name}' (available: {', '.join(DRIVERS)})", "NOT_FOUND"
    )


_DEVICES: dict[str, Device] = {}
_DEVICES_LOCK = threading.Lock()


def get_device(name: str) -> Device:
    """The process-wide device of that name (a local-task device keeps its worker pool)."""
    device = _DEVICES.get(name)
    if device is not None:
        return device
    with _DEVICES_LOCK:
        device = _DEVICES.get(name)
        if device is None:
            device = _DEVICES[name] = create_device(name)
        return device
