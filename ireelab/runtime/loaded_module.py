"""`ireelab.runtime.load_module(data)`: a module file ready to call from Python, the way IREE's
Python API (`iree.runtime.load_vm_flatbuffer`) wraps a `.vmfb`.

`LoadedModule.invoke(name, *arrays, device=...)` checks the arguments against the function's
ABI declaration first (one-line `RuntimeInputError` naming the argument and the expected type),
wraps the arrays as buffer views without copying, runs the function on the device's context
(created, linked and initialised on first use, then cached), and returns numpy arrays. A
scalar argument (`%input1: f32`) takes a Python or numpy scalar, passed in a VM register as
IREE passes it; a scalar result comes back as a numpy scalar (`np.float32(7.5)`).
"""

from __future__ import annotations

import operator
import threading
import time

import numpy as np

from ireelab.diagnostics import RuntimeInputError
from ireelab.runtime.hal.buffer import Buffer
from ireelab.runtime.hal.buffer_view import DIM_LIMIT, BufferView, from_numpy
from ireelab.runtime.hal.drivers import get_device
from ireelab.runtime.hal.trace_recorder import TraceRecorder, recording
from ireelab.runtime.profile import Profile, call_memory
from ireelab.runtime.vm.abi import (
    ArgumentSpec,
    FunctionSignature,
    ScalarSpec,
    TensorSpec,
    parse_declaration,
)
from ireelab.runtime.vm.call_verifier import verify_calls
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
        verify_calls(image, self.decoded)
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
        self._calls: dict[tuple[str, str], Call] = {}
        self.calls = self._calls
        """(function, device) -> its prepared `Call`, once `invoke` made it: what a caller
        that calls one function many times may call directly (`CompiledModule`'s methods)."""
        self._lock = threading.Lock()
        self._kernels_started = False
        self._kernels = None
        """The `kernel_pool.Compilation` of this module's kernels, while one runs."""

    def start_kernel_compiles(self) -> None:
        """Start compiling the kernels of every executable in worker processes
        (`kernel_pool`), so the first call loads them from numba's cache instead of compiling
        them one after another. The first call does this itself; calling it earlier takes
        the compiles off the critical path."""
        if self._kernels_started:
            return
        self._kernels_started = True
        from ireelab.runtime.hal import kernel_pool

        binaries = [
            self.image.rodata[e["rodata"]].data
            for e in self.image.executables
            if e.get("format") == "numba-python"
        ]
        try:
            self._kernels = kernel_pool.start(binaries)
        except Exception:  # noqa: BLE001 - a bad binary fails at hal.executable.create, located
            self._kernels = None

    def wait_for_kernels(self) -> None:
        """Wait for the kernel compiles `start_kernel_compiles` started (raises `HALError`
        naming the executable if one failed)."""
        self.start_kernel_compiles()
        compilation, self._kernels = self._kernels, None
        if compilation is not None:
            compilation.wait()

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
                self.wait_for_kernels()
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
        call = self._calls.get((name, device))
        if call is not None:
            return call(arrays)
        call = self._prepare(name, device)
        results = call(arrays)
        from ireelab.runtime.hal import kernel_pool

        kernel_pool.first_result()  # background kernel compiles may start now
        return results

    def profile(self, name: str, *arrays, device: str = "local-sync") -> Profile:
        """Call `name` once while recording a trace and the memory it needs (see `Profile`).

        Calls other threads make meanwhile on the same device are recorded too."""
        call = self._calls.get((name, device)) or self._prepare(name, device)
        allocator = call.allocator
        live = allocator.reset_peaks()
        before = allocator.snapshot()
        recorder = TraceRecorder()
        with recording(recorder):
            start = time.perf_counter()
            results = call(arrays)
            seconds = time.perf_counter() - start
        memory = call_memory(before, allocator.snapshot(), live)
        return Profile(name, device, results, recorder.trace_events(), seconds, memory)

    def _prepare(self, name: str, device: str) -> Call:
        signature = self.signature(name)
        context = self.context(device)
        call = Call(name, signature, context.function(name), context.device.allocator)
        self._calls[(name, device)] = call
        return call

    def __repr__(self) -> str:
        return f"<LoadedModule {self.name}: {', '.join(self.functions)}>"


class Call:
    """One exported function on one device, with everything a call needs looked up once: the
    translated function, the allocator, and per argument the dtype, static shape and element
    type code, so that a well-formed call checks each array with a few comparisons."""

    __slots__ = (
        "name", "signature", "run", "arity", "allocator", "fast", "scalar_results", "any_scalar",
        "record",
    )  # fmt: skip

    def __init__(self, name: str, signature: FunctionSignature | None, function, allocator):
        self.name = name
        self.signature = signature
        self.run = function.run
        self.arity = function.arity
        self.allocator = allocator
        self.fast: tuple[tuple[np.dtype, tuple | None, int | tuple | None, int], ...] | None = None
        """(dtype, shape, dims check, element code) per input, when every input is a tensor
        (`_fast_spec`): the array's shape must pass the check. Anything else takes
        `_check_inputs` for its located error."""
        if signature is not None and all(isinstance(s, TensorSpec) for s in signature.inputs):
            self.fast = tuple(_fast_spec(s) for s in signature.inputs)
        self.scalar_results: tuple[ScalarSpec | None, ...] = ()
        """Per result, its ScalarSpec when the declaration says it is a scalar."""
        if signature is not None:
            self.scalar_results = tuple(
                s if isinstance(s, ScalarSpec) else None for s in signature.outputs
            )
        self.any_scalar = any(self.scalar_results)
        self.record: dict[str, tuple[tuple, tuple]] | None = None
        """Where each call writes its argument and result shapes under the function's name
        (a `CompiledModule`'s `last_run`, for a function with `?` sizes), else None. They
        are read off the buffer views, which hold them as tuples already."""

    def __call__(self, arrays: tuple) -> tuple[np.ndarray, ...]:
        views = self._views(arrays)
        results = self.run(*views)
        record = self.record
        if record is not None:
            try:
                record[self.name] = _SHAPES.get((len(views), len(results)), _every_shape)(
                    views, results
                )
            except AttributeError:  # a scalar argument or result
                record[self.name] = (_shapes(views), _shapes(results))
        if self.any_scalar:
            return _scalar_results(results, self.scalar_results)
        if len(results) == 1:  # the common case, without the comprehension's frame
            (result,) = results
            return (result.to_numpy() if type(result) is BufferView else np.asarray(result),)
        return tuple([r.to_numpy() if type(r) is BufferView else np.asarray(r) for r in results])

    def _views(self, arrays: tuple) -> list[BufferView]:
        fast = self.fast
        if fast is not None and len(arrays) == len(fast):
            views = []
            allocator = self.allocator
            for array, (dtype, shape, start, code) in zip(arrays, fast, strict=True):
                if not (
                    type(array) is np.ndarray
                    and array.dtype == dtype
                    and array.flags.carray
                    and 0 < array.size <= DIM_LIMIT  # every dim then is too (`DIM_LIMIT`)
                ):
                    break
                have = array.shape
                if start is None:
                    if have != shape:
                        break
                elif shape is not None:  # `?`s first: the rest, which also fixes the rank
                    if have[start:] != shape:
                        break
                else:
                    rank, pick, sizes = start
                    if len(have) != rank or (pick is not None and pick(have) != sizes):
                        break
                # `allocator.wrap`, inlined: the caller's memory, imported without a copy
                storage = np.frombuffer(array, np.uint8)
                buffer = Buffer(storage, 0, storage.shape[0], 0, 0, allocator)
                views.append(BufferView(buffer, have, code))
            else:
                return views
        inputs = _check_inputs(self.name, self.signature, arrays, self.arity)
        if self.signature is None:
            return [from_numpy(a, self.allocator) for a in inputs]
        return [
            spec.to_register(a)
            if isinstance(spec, ScalarSpec)
            else from_numpy(a, self.allocator, spec.element_code)
            for a, spec in zip(inputs, self.signature.inputs, strict=True)
        ]


_SHAPE = operator.attrgetter("shape")


def _every_shape(views, results) -> tuple[tuple, tuple]:
    return (tuple(map(_SHAPE, views)), tuple(map(_SHAPE, results)))


_SHAPES = {
    (1, 1): lambda v, r: ((v[0].shape,), (r[0].shape,)),
    (2, 1): lambda v, r: ((v[0].shape, v[1].shape), (r[0].shape,)),
    (3, 1): lambda v, r: ((v[0].shape, v[1].shape, v[2].shape), (r[0].shape,)),
    (4, 1): lambda v, r: ((v[0].shape, v[1].shape, v[2].shape, v[3].shape), (r[0].shape,)),
}
"""`_every_shape` for the usual argument and result counts, written out (a call of a `?`
function records its shapes on every call: `Call.record`)."""


def _shapes(values) -> tuple[tuple[int, ...], ...]:
    return tuple([getattr(v, "shape", ()) for v in values])


def _fast_spec(spec: TensorSpec) -> tuple[np.dtype, tuple | None, int | tuple | None, int]:
    """The entry of `Call.fast` for one tensor argument: `(dtype, shape, None, code)` for a
    static shape; `(dtype, tail, k, code)` when only the first `k` dims are `?` and `tail`,
    the static rest, is not empty (`shape[k:] == tail` then checks the rank too); else
    `(dtype, None, (rank, pick, sizes), code)`, `pick` the static dims (None: there are none)."""
    shape = tuple(spec.shape)
    if None not in shape:
        return (spec.dtype, shape, None, spec.element_code)
    static = [i for i, d in enumerate(shape) if d is not None]
    if static and static == list(range(static[0], len(shape))):  # `?`s, then static dims
        return (spec.dtype, shape[static[0] :], static[0], spec.element_code)
    if not static:
        return (spec.dtype, None, (len(shape), None, None), spec.element_code)
    pick = operator.itemgetter(*static)  # one index gives the size itself, several a tuple
    return (spec.dtype, None, (len(shape), pick, pick(shape)), spec.element_code)


def _scalar_results(results, specs: tuple[ScalarSpec | None, ...]) -> tuple:
    out = []
    for value, spec in zip(results, specs, strict=False):
        if spec is not None:
            out.append(spec.from_register(value))
        else:
            out.append(value.to_numpy() if type(value) is BufferView else np.asarray(value))
    return tuple(out)


def _check_inputs(name: str, signature: FunctionSignature | None, arrays, arity: int) -> list:
    if signature is None:
        if len(arrays) != arity:
            # IREE's words for a function without a declaration (an `$async` entry point,
            # whose fences only its sync wrapper passes): the VM's argument count.
            raise RuntimeInputError(
                f"input list and function mismatch; expected {arity} arguments but passed "
                f"{len(arrays)}; invoking function '{name}'"
            )
        return [a if isinstance(a, np.ndarray) else np.asarray(a) for a in arrays]
    if len(arrays) != len(signature.inputs):
        raise RuntimeInputError(
            f"@{name} expects {len(signature.inputs)} argument(s) but got {len(arrays)}; "
            f"`{signature}`"
        )
    checked = []
    for i, (value, spec) in enumerate(zip(arrays, signature.inputs, strict=True)):
        if isinstance(spec, TensorSpec) and not isinstance(value, np.ndarray):
            value = np.asarray(value)
        problem = spec.mismatch(value)
        if problem is not None:
            raise RuntimeInputError(_describe(name, i, spec, problem))
        checked.append(value)
    return checked


def _describe(name: str, index: int, spec: ArgumentSpec, problem: str) -> str:
    got = f"got {problem}" if isinstance(spec, ScalarSpec) else f"got an array with {problem}"
    return f"@{name} argument {index} (%{spec.name}): expected {spec.type_string()}, {got}"


def load_module(data: bytes) -> LoadedModule:
    """Validate and decode a module file's bytes (raises `ModuleFileError` if it is bad)."""
    return LoadedModule(read_module(data))
