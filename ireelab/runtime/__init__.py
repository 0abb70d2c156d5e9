"""ireelab's runtime: the HAL (devices, buffers, command buffers, fences, executables) and the
VM (module file reader, bytecode interpreter). Mirrors IREE's `runtime/src/iree/{hal,vm}`.

    from ireelab.runtime import load_module
    module = load_module(open("m.ilvm", "rb").read())
    (result,) = module.invoke("matmul", a, b, device="local-task")
"""

from __future__ import annotations

from ireelab.runtime.errors import DispatchError, HALError, ModuleFileError, VMError

__all__ = ["load_module", "LoadedModule", "ModuleFileError", "HALError", "DispatchError", "VMError"]


def __getattr__(name: str):
    # numpy-heavy pieces load on first use so `import ireelab` stays fast.
    if name in ("load_module", "LoadedModule"):
        from ireelab.runtime import loaded_module

        return getattr(loaded_module, name)
    raise AttributeError(name)
