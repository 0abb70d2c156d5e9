"""`ireelab.runtime.load_module(data)`: a module file ready to call from Python, the way IREE's
Python API (`iree.runtime.load_vm_flatbuffer`) wraps a `.vmfb`.

`LoadedModule.invoke(name, *arrays, device=...)` checks the arguments against the function's
ABI declaration first (one-line `RuntimeInputError` naming the argument and the expected type),
wraps the arrays as buffer views without copying, runs the function on the device's context
(created, linked and initialised on first use, then cached), and returns numpy arrays.
"""

from __future__ import annotations

import threading

import numpy as np

from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime.hal.buffer_view import BufferView, from_numpy
from ireelab.runtime.hal.device import get_device
from ireelab.runtime.vm.abi import FunctionSignature, TensorSpec, parse_declaration
from ireelab.runtime.vm.context import Context
from ireelab.runtime.vm.decoder import decode_function
from ireelab.runtime.vm.module_file import ModuleImage, read_module

DEVICES = ("local-sync", "local-task")


class LoadedModule:
    def __init__(self, image: ModuleImage):
        self.image = image
        self.decoded = [
            decode_function(f.name, f.code, f.registers, f.block_count) for f in image.functions
        ]
        self.functions: dict[str, FunctionSignature | None] = {}
        """Exported function name -> its ABI signature (None when it has no declaration)."""
        for export in image.exports:
            if export["name"].startswith("__"):
                continue
            declaration = image.reflection.get(export["name"], {}).get("iree.abi.declaration")
            try:
                signature = parse_declaration(declaration) if declaration else None
            except (ValueError, KeyError):
                signature = None
            self.functions[export["name"]] = signature
        self._contexts: dict[str, Context] = {}
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.image.name

    def context(self, device: str = "local-sync") -> Context:
        context = self._contexts.get(device)
        if context is not None:
            return context
        if device not in DEVICES:
            raise RuntimeInputError(
                f"unknown device '{device}'; expected one of {', '.join(DEVICES)}"
            )
        with self._lock:
            context = self._contexts.get(device)
            if context is None:
                context = Context(self.image, self.decoded, get_device(device))
                context.initialize()
                self._contexts[device] = context
        return context

    def signature(self, name: str) -> FunctionSignature | None:
        if name not in self.functions:
            known = ", ".join(sorted(self.functions)) or "none"
            raise RuntimeInputError(
                f"no function '{name}' in module '{self.name}' (exports: {known})"
            )
        return self.functions[name]

    def invoke(self, name: str, *arrays, device: str = "local-sync") -> tuple[np.ndarray, ...]:
        signature = self.signature(name)
        inputs = _check_inputs(name, signature, arrays)
        context = self.context(device)
        allocator = context.device.allocator
        if signature is None:
            views = [from_numpy(a, allocator) for a in inputs]
        else:
            views = [
                from_numpy(a, allocator, spec.element_code)
                for a, spec in zip(inputs, signature.inputs, strict=True)
            ]
        results = context.function(name)(*views)
        return tuple(r.to_numpy() if isinstance(r, BufferView) else np.asarray(r) for r in results)

    def __repr__(self) -> str:
        return f"<LoadedModule {self.name}: {', '.join(self.functions)}>"


def _check_inputs(name: str, signature: FunctionSignature | None, arrays) -> list[np.ndarray]:
    arrays = [a if isinstance(a, np.ndarray) else np.asarray(a) for a in arrays]
    if signature is None:
        return arrays
    if len(arrays) != len(signature.inputs):
        raise RuntimeInputError(
            f"@{name} expects {len(signature.inputs)} argument(s) but got {len(arrays)}; "
            f"`{signature}`"
        )
    for i, (array, spec) in enumerate(zip(arrays, signature.inputs, strict=True)):
        problem = spec.mismatch(array)
        if problem is not None:
            raise RuntimeInputError(_describe(name, i, spec, problem))
    return arrays


def _describe(name: str, index: int, spec: TensorSpec, problem: str) -> str:
    return (
        f"@{name} argument {index} (%{spec.name}): expected {spec.type_string()}, got an array "
        f"with {problem}"
    )


def load_module(data: bytes) -> LoadedModule:
    """Validate and decode a module file's bytes (raises `ModuleFileError` if it is bad)."""
    return LoadedModule(read_module(data))
