"""ireelab's runtime: the HAL (devices, buffers, command buffers, fences, executables) and the
VM (module file reader, bytecode interpreter). Mirrors IREE's `runtime/src/iree/{hal,vm}`.

    from ireelab.runtime import load_module
    module = load_module(open("m.ilvm", "rb").read())
    (result,) = module.invoke("matmul", a, b, device="local-task")
    profile = module.profile("matmul", a, b, device="local-task")   # Profile: trace, memory

`local-task` executes IREE's async model for real: queue submissions return at once and run on
a worker pool when their wait fence is reached, the dispatches of a concurrent section run at
the same time on different workers, and fences carry completion and failures between
submissions and to the program's `hal.fence.await`.
"""

from __future__ import annotations

from ireelab.runtime.errors import DispatchError, HALError, ModuleFileError, VMError

__all__ = [
    "load_module",
    "LoadedModule",
    "Profile",
    "ModuleFileError",
    "HALError",
    "DispatchError",
    "VMError",
]


def __getattr__(name: str):
    # numpy-heavy pieces load on first use so `import ireelab` stays fast.
    if name in ("load_module", "LoadedModule"):
        from ireelab.runtime import loaded_module

        return getattr(loaded_module, name)
    if name == "Profile":
        from ireelab.runtime.profile import Profile

        return Profile
    raise AttributeError(name)
