"""C entry points for an executable's kernels, so native code can call them by address.

IREE's executables export one C function per entry point (`iree_hal_executable_dispatch_v0_t`:
the dispatch state, the workgroup id, a scratch pointer), and its task workers call those
function pointers. ireelab's kernels are numba dispatchers called from Python; to run a plan
without the GIL (`native_tasks`), each export also gets a C entry point

    void entry_<ordinal>(int64 wg_begin, int64 wg_end, int64 *ctx)

where `ctx` is `[wg_count_x, wg_count_y, wg_count_z, then per binding: address, length,
then the push constants, then a generic kernel's lifted constants]`. The entry rebuilds the byte arrays from the addresses and calls the
kernel with exactly the types the Python path passes, so both share one compiled kernel.

Each entry inlines its kernel (numba's `inline="always"` on a second dispatcher of the same
Python function), so the kernel is compiled once, inside its entry, and not a second time as a
callee. The entries live in a companion module `n_<digest>.py` beside the kernel module `k_<digest>.py`
in the kernel cache, written and imported on first use (a `numba.cfunc` compiles when it is
defined; numba's cache keeps it for the next process). The companion is generated here from
integers only: export ordinals and operand counts, never text from the executable.
"""

from __future__ import annotations

import importlib
import threading

import numba
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

ENTRY_SIGNATURE = types.void(types.int64, types.int64, types.CPointer(types.int64))

_LOCK = threading.Lock()


@intrinsic
def _byte_pointer(typingctx, address):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], ir.IntType(8).as_pointer())

    return types.CPointer(types.uint8)(types.int64), codegen


@numba.njit(nogil=True, cache=True, inline="always")
def binding(ctx, index):
    """Binding `index`'s bytes from an entry's ctx (address and length at ctx[3 + 2 * index])."""
    return numba.carray(_byte_pointer(ctx[3 + 2 * index]), (ctx[4 + 2 * index],))


MAX_INLINED_ARGUMENTS = 30
"""CPython (3.11 on) compiles a call with more positional arguments than this as `f(*args)`
(its STACK_USE_GUIDELINE), which numba cannot inline: an export whose kernel takes more (the
5 grid arguments, then its bindings and push constants) gets no C entry."""


def can_have_entries(exports: list[tuple[int, int, int]], block: bool = False) -> bool:
    """Whether every `(ordinal, bindings, constants)` export's kernel call can be inlined
    (`block`: the kernels take the argument block last, as generic kernels do)."""
    return all(
        5 + bindings + constants + block <= MAX_INLINED_ARGUMENTS
        for _, bindings, constants in exports
    )


def entries_source(
    kernel_module: str, exports: list[tuple[int, int, int]], block: bool = False
) -> str:
    """The companion module of `kernel_module` for `(ordinal, bindings, constants)` exports;
    with `block`, each kernel also takes the argument block itself, last (a generic kernel
    reads its lifted constants from it, `generic_kernels`)."""
    lines = [
        "import numba",
        "",
        "from ireelab.runtime.hal.native_entries import ENTRY_SIGNATURE, binding",
        f"from {kernel_module} import _JIT_OPTIONS, "
        + ", ".join(f"dispatch_{o}" for o, _, _ in exports),
        "",
    ]
    for ordinal, bindings, constants in exports:
        operands = [f"binding(ctx, {i})" for i in range(bindings)]
        operands += [f"ctx[{3 + 2 * bindings + i}]" for i in range(constants)]
        operands += ["ctx"] if block else []
        call = ", ".join(["wg_begin", "wg_end", "ctx[0]", "ctx[1]", "ctx[2]", *operands])
        lines += [
            "",
            f'_inline_{ordinal} = numba.njit(inline="always", **_JIT_OPTIONS)(',
            f"    dispatch_{ordinal}.py_func",
            ")",
            "",
            "",
            "@numba.cfunc(ENTRY_SIGNATURE, **_JIT_OPTIONS)",
            f"def entry_{ordinal}(wg_begin, wg_end, ctx):",
            f"    _inline_{ordinal}({call})",
            "",
        ]
    return "\n".join(lines)


def entries_module(kernel_module: str) -> str:
    """The companion module's name for `kernel_module` (`k_<digest>` -> `n_<digest>`)."""
    return "n_" + kernel_module.removeprefix("k_")


def write_entries(
    kernel_module: str, exports: list[tuple[int, int, int]], block: bool = False
) -> str:
    """Write the companion of `kernel_module` into the kernel cache; return its name."""
    from ireelab.runtime.hal.executable_loader import write_cache_module

    name = entries_module(kernel_module)
    write_cache_module(name, entries_source(kernel_module, exports, block))
    return name


def entry_addresses(
    kernel_module: str, exports: list[tuple[int, int, int]], block: bool = False
) -> list[int] | None:
    """Addresses of the C entry points of `kernel_module`'s exports (compiling or loading
    them the first time), or None if they cannot be built."""
    if not can_have_entries(exports, block):
        return None
    with _LOCK:  # one thread writes and compiles; the others then import the module
        try:
            module = importlib.import_module(write_entries(kernel_module, exports, block))
            return [getattr(module, f"entry_{o}").address for o, _, _ in exports]
        except Exception:  # noqa: BLE001 - no native entries: the Python path runs the kernels
            return None
