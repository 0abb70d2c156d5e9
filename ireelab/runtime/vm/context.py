"""A VM context: one module instantiated on one device, with its globals, the `hal` and
`check` modules its imports resolve to, and its functions linked and initialised (IREE's `iree_vm_context_t`
holding the hal module and the bytecode module, after `__init` ran).
"""

from __future__ import annotations

import threading

from ireelab.runtime.check_module import CheckModule
from ireelab.runtime.errors import ModuleFileError, VMError
from ireelab.runtime.hal.device import Device
from ireelab.runtime.hal.module import (
    INLINE_CALLS,
    NONNULL_RESULTS,
    RESULT_RANGES,
    HALModule,
    check_dispatch,
)
from ireelab.runtime.vm.decoder import DecodedFunction
from ireelab.runtime.vm.interpreter import Function, link_functions
from ireelab.runtime.vm.module_file import ModuleImage


class Context:
    def __init__(self, image: ModuleImage, decoded: list[DecodedFunction], device: Device):
        self.device = device
        self.hal = HALModule(device)
        self.check = CheckModule()
        """The `check` module's instance: what a test program's `check.*` imports record."""
        provided = {**self.hal.functions, **self.check.functions}
        imports, names = [], []
        for entry in image.imports:
            name = entry["name"]
            function = provided.get(name)
            if function is None:
                raise ModuleFileError(
                    f"module imports '{name}', which the runtime's "
                    f"{name.partition('.')[0]} module does not provide"
                )
            imports.append(function)
            names.append(name)
        self.globals = {
            kind: [
                g.get("initial", 0 if kind != "ref" else None) for g in image.globals.get(kind, [])
            ]
            for kind in ("i32", "i64", "ref")
        }
        rodata = [r.data for r in image.rodata]
        fused = (self.hal.command_buffer_record, check_dispatch)
        self.functions: list[Function] = link_functions(
            decoded,
            imports,
            names,
            self.globals,
            rodata,
            RESULT_RANGES,
            fused,
            INLINE_CALLS,
            NONNULL_RESULTS,
        )
        self.exports = {e["name"]: self.functions[int(e["function"])] for e in image.exports}
        self._init_lock = threading.Lock()
        self._initialized = False

    def initialize(self) -> None:
        """Run the module's `__init` once (device selection, executables, memoized commands)."""
        with self._init_lock:
            if self._initialized:
                return
            init = self.exports.get("__init")
            if init is not None:
                init()
            self._initialized = True

    def function(self, name: str) -> Function:
        function = self.exports.get(name)
        if function is None:
            raise VMError(f"NOT_FOUND; no function `{name}` exported by module")
        return function
