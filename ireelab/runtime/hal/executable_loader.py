"""Loading a "numba-python" executable binary: IREE's executable loader for ireelab's kernels.

Mirrors IREE's `iree_hal_executable_loader_t` (runtime/src/iree/hal/local/executable_loader.h),
which turns the bytes of a `hal.executable.binary` into a library whose exports the local
devices call per workgroup range. Here the bytes are UTF-8 JSON (format in docs/internals.md,
"Executable lifecycle"): an export table and the Python source of one module defining
`dispatch_<ordinal>` numba kernels.

What loading trusts: nothing in the binary is run before the source passes
`kernel_source_check.check_kernel_source`, an `ast` allow-list of exactly the constructs
ireelab's code generator writes (fixed imports, numba-decorated functions, constant buffers,
the emitter's names, attributes and strings; no other statement at module level, no dunder
access, no strings of its own). A source that is not what `ConvertToNumbaPass` could have
emitted is refused with a one-line `ExecutableLoadError`, so a forged or re-sealed module file
cannot make the loader import arbitrary Python. The check does not make kernels memory-safe
(numba does not bounds-check, micro-kernels pass pointers to BLAS): a hand-made kernel within
the rules can still corrupt memory, as a hand-made native `.vmfb` can in IREE. Hand-written
kernels (tests, experiments) are loaded only after the process says so, with
`trust_kernel_source(source)`.

The source is written to the kernel cache folder (`$IREELAB_CACHE_DIR`, default
`~/.cache/ireelab/kernels`) as `k_<sha256 prefix>.py` and imported by that name, because numba's
on-disk cache only works for functions of importable modules: a second process then loads the
compiled kernels instead of compiling again. The cached module leaves out the source's header
comment (the executable's and exports' names), so equal kernels of differently named
executables share it. Modules that call micro-kernels first get the BLAS
symbols those name registered with LLVM (`register_ukernel_symbols`), as IREE's loaders resolve
an executable's imports.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from itertools import takewhile
from pathlib import Path
from typing import Any

from ireelab.runtime.hal.blas_threads import SingleThreadedBlas, blas_scope
from ireelab.runtime.hal.kernel_source_check import (
    UKERNEL_MODULE,
    KernelSourceError,
    check_kernel_source,
)

FORMAT = "numba-python"
VERSION = 1

_TRUSTED: set[str] = set()
"""SHA-256 digests of hand-written kernel sources this process chose to load unchecked."""
_CHECKED: set[str] = set()
"""Digests of sources that passed the check (checked once per process)."""


def trust_kernel_source(source: str) -> None:
    """Let this process load `source` although it is not what ireelab's code generator
    writes (a hand-written test kernel). Only code already running in the process can do
    this; nothing in a module file can."""
    _TRUSTED.add(hashlib.sha256(source.encode("utf-8")).hexdigest())


def verify_kernel_source(source: str) -> None:
    """Raise `ExecutableLoadError` unless `source` is trusted or made only of generated
    constructs (`kernel_source_check`)."""
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    if digest in _TRUSTED or digest in _CHECKED:
        return
    try:
        check_kernel_source(source)
    except KernelSourceError as err:
        raise _fail(f"kernel source refused: {err}") from None
    _CHECKED.add(digest)


class ExecutableLoadError(Exception):
    """The executable binary is malformed or its kernels cannot be loaded."""


@dataclass(frozen=True)
class ExportInfo:
    name: str
    ordinal: int
    bindings: int
    workgroup_size: tuple[int, int, int]
    constants: int = 0
    """32-bit push constants the kernel takes after its bindings."""


@dataclass(frozen=True)
class LoadedExecutable:
    """An executable whose kernels are ready: `functions[ordinal]` are numba dispatchers with
    the signature `(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0, ..., bN,
    c0, ..., cM)` (bindings, then push constants)."""

    exports: tuple[ExportInfo, ...]
    functions: tuple[Any, ...]
    module_name: str
    blas: SingleThreadedBlas | None = None
    """Held around every kernel call when the kernels call BLAS (see `blas_threads`)."""
    source: str = ""
    """The checked kernel module source (its generic form is derived from it)."""

    @property
    def export_names(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.exports)

    def lookup(self, name: str) -> int:
        """The ordinal of the export called `name`."""
        for export in self.exports:
            if export.name == name:
                return export.ordinal
        raise KeyError(f"executable has no export named '{name}'")


def cache_dir() -> Path:
    configured = os.environ.get("IREELAB_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "ireelab" / "kernels"


def _fail(message: str) -> ExecutableLoadError:
    return ExecutableLoadError(f"invalid {FORMAT} executable: {message}")


def _parse_export(entry: object, position: int) -> ExportInfo:
    if not isinstance(entry, dict):
        raise _fail(f"exports[{position}] is not an object")
    name, ordinal = entry.get("name"), entry.get("ordinal")
    bindings, size = entry.get("bindings"), entry.get("workgroup_size")
    constants = entry.get("constants", 0)
    if not isinstance(name, str) or not name:
        raise _fail(f"exports[{position}].name must be a non-empty string")
    if type(ordinal) is not int or ordinal < 0:
        raise _fail(f"exports[{position}].ordinal must be a non-negative integer")
    if type(bindings) is not int or bindings < 0:
        raise _fail(f"exports[{position}].bindings must be a non-negative integer")
    if type(constants) is not int or constants < 0:
        raise _fail(f"exports[{position}].constants must be a non-negative integer")
    if not (
        isinstance(size, list) and len(size) == 3 and all(type(s) is int and s > 0 for s in size)
    ):
        raise _fail(f"exports[{position}].workgroup_size must be three positive integers")
    return ExportInfo(name, ordinal, bindings, (size[0], size[1], size[2]), constants)


def parse_executable(binary: bytes) -> tuple[tuple[ExportInfo, ...], str]:
    """Validate the JSON binary; return the export table (by ordinal) and the module source."""
    try:
        document = json.loads(bytes(binary).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise _fail(f"not UTF-8 JSON ({err})") from None
    if not isinstance(document, dict):
        raise _fail("the top level is not an object")
    if document.get("format") != FORMAT:
        raise _fail(f"format is {document.get('format')!r}, expected '{FORMAT}'")
    if document.get("version") != VERSION:
        raise _fail(f"version is {document.get('version')!r}, expected {VERSION}")
    entries, source = document.get("exports"), document.get("source")
    if not isinstance(entries, list):
        raise _fail("'exports' is not a list")
    if not isinstance(source, str) or not source:
        raise _fail("'source' is not a non-empty string")
    exports = sorted((_parse_export(e, i) for i, e in enumerate(entries)), key=lambda e: e.ordinal)
    if [e.ordinal for e in exports] != list(range(len(exports))):
        raise _fail("export ordinals must be 0..N-1, each once")
    return tuple(exports), source


def cached_kernel_text(source: str) -> str:
    """What the kernel cache holds for `source`: the module without its leading comment
    lines (the header naming the executable and its exports), so executables of other
    programs with the same kernels (a model through ONNX and through torch, a dispatch under
    another function's name) share one module and one numba compile."""
    lines = source.splitlines(keepends=True)
    header = sum(1 for _ in takewhile(lambda line: line.startswith("#"), lines))
    return "".join(lines[header:])


def write_kernel_module(source: str) -> str:
    """Write `source` (without its header, `cached_kernel_text`) into the cache folder under
    its hash name; return the module name."""
    text = cached_kernel_text(source)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]
    module_name = f"k_{digest}"
    write_cache_module(module_name, text)
    return module_name


def write_cache_module(module_name: str, source: str) -> None:
    """Make `source` importable as `module_name` from the kernel cache folder (written only
    when it differs, by write-then-rename, so a concurrent process never imports a
    half-written file)."""
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{module_name}.py"
    if not path.exists() or path.read_text(encoding="utf-8") != source:
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(source)
        os.replace(temporary, path)
    if str(folder) not in sys.path:
        sys.path.append(str(folder))


def _library_symbols(pattern: str, names: tuple[str, ...]) -> tuple[int, ...] | None:
    """Addresses of `names` in the first shared library matching `pattern` beside numpy /
    scipy in site-packages (their wheels' bundled OpenBLAS), or None."""
    import numpy

    site = Path(numpy.__file__).parent.parent
    for library in sorted(site.glob(pattern)):
        try:
            handle = ctypes.CDLL(str(library))
            functions = [getattr(handle, name) for name in names]
        except (OSError, AttributeError):
            continue
        return tuple(ctypes.cast(f, ctypes.c_void_p).value for f in functions)
    return None


def _blas_entry_points() -> tuple[int, int, int | None]:
    """(sgemm, dgemm, openblas_set_num_threads_local or None) of the BLAS the micro-kernels
    call: numpy's bundled OpenBLAS (64-bit integers; the BLAS numpy's own matmul runs, so the
    benchmarks compare like with like), else scipy's (32-bit integers)."""
    found = _library_symbols(
        "numpy.libs/*openblas64*.so*",
        ("scipy_sgemm_64_", "scipy_dgemm_64_", "openblas_set_num_threads_local"),
    )
    if found is not None:
        return found
    from numba.extending import get_cython_function_address

    sgemm = get_cython_function_address("scipy.linalg.cython_blas", "sgemm")
    dgemm = get_cython_function_address("scipy.linalg.cython_blas", "dgemm")
    threads = _library_symbols("scipy.libs/*openblas*.so*", ("openblas_set_num_threads_local",))
    return sgemm, dgemm, threads[0] if threads else None


@cache
def register_ukernel_symbols() -> SingleThreadedBlas | None:
    """Give LLVM the BLAS entry points the micro-kernels call by name (codegen's
    `ukernel_library.BLAS_SYMBOLS`, called from `ukernels`): Fortran `sgemm` / `dgemm`. The kernels pass integers as
    64-bit slots, which a 32-bit-integer BLAS reads right only on a little-endian host. Returns
    the scope that keeps that BLAS single-threaded while kernels run (None without OpenBLAS)."""
    import llvmlite.binding as llvm

    if sys.byteorder != "little":  # pragma: no cover - no big-endian CI machine
        raise ExecutableLoadError("the GEMM micro-kernels need a little-endian host")
    sgemm, dgemm, threads_local = _blas_entry_points()
    llvm.add_symbol("ireelab_uk_sgemm", sgemm)
    llvm.add_symbol("ireelab_uk_dgemm", dgemm)
    return blas_scope(threads_local)


def uses_ukernels(source: str) -> bool:
    """Whether a kernel module calls the BLAS micro-kernels (imported from the runtime's
    library, or, in module files of earlier versions, defined in the module itself)."""
    return UKERNEL_MODULE in source or "ireelab_uk_" in source


def load_executable(binary: bytes) -> LoadedExecutable:
    """Parse, write and import an executable; its kernels compile (or load from cache) lazily."""
    exports, source = parse_executable(binary)
    verify_kernel_source(source)
    blas = None
    if uses_ukernels(source):
        try:
            blas = register_ukernel_symbols()
        except (ImportError, AttributeError, ValueError) as err:
            raise ExecutableLoadError(f"micro-kernels need scipy's BLAS: {err}") from err
    module_name = write_kernel_module(source)
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # a broken kernel module must not surface as a raw traceback
        raise ExecutableLoadError(f"cannot import kernel module {module_name}: {err}") from err
    functions = []
    for export in exports:
        function = getattr(module, f"dispatch_{export.ordinal}", None)
        if function is None:
            raise _fail(f"source defines no dispatch_{export.ordinal} for export '{export.name}'")
        functions.append(function)
    return LoadedExecutable(exports, tuple(functions), module_name, blas, source)


KERNEL_ARGUMENTS = ("int64",) * 5
"""The workgroup range and counts every kernel takes first (docs/internals.md, Kernels)."""
BINDING_TYPE = "array(uint8, 1d, C)"
"""Every binding: a writeable 1-D C-contiguous byte array."""
CONSTANT_TYPE = "int64"
"""Every push constant, as the runtime passes it: a Python int (the kernel reads it as i32)."""


def compiled_entry(function: Any) -> Any | None:
    """The compiled entry point of a numba dispatcher with exactly one overload whose signature
    is the kernel ABI (five int64, writeable 1-D uint8 arrays, then int64 push constants), or
    None.

    Calling it skips the dispatcher's type resolution. That is safe only because the runtime
    always passes those types: bindings are slices of writeable 1-D byte buffers, constants
    are ints."""
    overloads = getattr(function, "overloads", None)
    if not overloads or len(overloads) != 1:
        return None
    ((signature, result),) = overloads.items()
    names = [str(t) for t in signature]
    if tuple(names[:5]) != KERNEL_ARGUMENTS:
        return None
    operands = names[5:]
    bindings = len(operands) - len(list(takewhile(lambda n: n == CONSTANT_TYPE, operands[::-1])))
    if any(n != BINDING_TYPE for n in operands[:bindings]):
        return None
    return getattr(result, "entry_point", None)
