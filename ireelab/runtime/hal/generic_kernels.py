"""Shape-generic kernels: one numba compile serves every executable that differs only in sizes.

IREE has no counterpart: it compiles each dispatch ahead of time into the module, so a kernel
costs nothing at load. ireelab's kernels are compiled by numba when a module is first run, and
each distinct kernel costs about a second of numba, so a model whose layers differ only in
their widths (48 distinct matmul + bias + tanh dispatches) paid 48 compiles before its first
result. This is ireelab's own tier design:

- The **generic form** of a kernel module is its source with the integer literals of every
  `dispatch_<ordinal>` kernel (sizes, byte extents, trip counts, offsets: everything but 0
  and 1, which loops and strides keep as literals) replaced by names `k0, k1, ...`, one per
  literal, in source order. Binding offsets are lifted even when 0 (a layer that writes the
  first half of a transient buffer and one that writes the second are one kernel), constants
  nothing reads are dropped and the kernel's locals renamed in order (how many constants the
  emitter wrote for offsets differs with them), so the generic source is a function of the
  kernel's structure only, never of its sizes: executables that differ only in sizes share
  one generic source, so one numba compile (and one on-disk cache entry) serves them all.
  The kernel takes the argument block last and reads its `k`s from it (`native_entries`:
  the values each executable plugs in are its `lifted` constants, after the push constants,
  so their number is not limited by the inlined call's arguments).
- The **specialised** kernel (the executable's own source, literals in place) is what the
  module file holds and what runs once compiled. On a first run the generic kernel runs;
  once the first result is returned, the specialised one compiles in the background kernel
  pool (`kernel_pool`), and the executable swaps to it when it is ready
  (`executable.Executable.native_entries`); a later process finds it in the cache and never
  runs the generic one. A process that exits right after its first result stops those
  compiles (what finished is kept), so a short script may run the generic kernels every
  time; a notebook or a server swaps within seconds of its first call.

The transform is a function of the checked source only (`kernel_source_check`), written by
the runtime, and checked again before it is imported: nothing of the input reaches it beyond
what the emitter already wrote. Literals that must stay compile-time constants for numba are
kept: subscript indices (a tuple's element is picked by a literal index), the axes of a
`transpose`, values past int64 and everything outside the `dispatch_<ordinal>` kernels
(intrinsics, constant buffers, options).

`IREELAB_GENERIC_KERNELS=0` turns the tier off (the specialised kernel compiles before the
first call, as before); `=always` runs the generic kernels and never swaps (for tests that
check the generic kernels compute what the specialised ones do).
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from functools import lru_cache

_KERNEL = re.compile(r"dispatch_(\d+)")
KEPT = frozenset({0, 1})
"""Literals every kernel keeps: loop starts and steps, unit strides and sizes."""
INT64_MAX = 2**63 - 1
"""Lifted values travel as int64 (the argument block's words)."""


def mode() -> str:
    """`on` (the tiers, default), `off` or `always` (`IREELAB_GENERIC_KERNELS`)."""
    value = os.environ.get("IREELAB_GENERIC_KERNELS", "1")
    if value == "0":
        return "off"
    if value == "always":
        return "always"
    return "on"


@dataclass(frozen=True)
class GenericKernel:
    """The generic kernel module of an executable, written into the kernel cache."""

    module: str
    """Its kernel module's name (`k_<digest of the generic source>`)."""
    entries: str
    """Its C-entry companion's name (`native_entries`, the kernels taking the block last)."""
    operands: tuple[tuple[int, int, int], ...]
    """`(ordinal, bindings, push constants)` of every export."""
    lifted: tuple[tuple[int, ...], ...]
    """By export ordinal: the values this executable passes after its push constants."""


def generic_kernel(source: str, operands: list[tuple[int, int, int]]) -> GenericKernel | None:
    """Write the generic form of the checked kernel module `source` (exports' `(ordinal,
    bindings, push constants)` in `operands`) and its C-entry companion into the kernel
    cache; None when it has none, or it cannot have C entries (the only way the runtime
    passes the lifted constants)."""
    from ireelab.runtime.hal.executable_loader import verify_kernel_source, write_kernel_module
    from ireelab.runtime.hal.native_entries import can_have_entries, write_entries

    form = generic_form(source, operands)
    if form is None or not can_have_entries(operands, block=True):
        return None
    verify_kernel_source(form.source)  # written by this module; checked like any other
    module = write_kernel_module(form.source)
    entries = write_entries(module, operands, block=True)
    return GenericKernel(module, entries, tuple(operands), form.lifted)


@dataclass(frozen=True)
class GenericForm:
    source: str
    """The generic kernel module's source."""
    lifted: tuple[tuple[int, ...], ...]
    """By export ordinal: the values this executable passes for `k0, k1, ...`."""


def generic_form(source: str, operands: list[tuple[int, int, int]]) -> GenericForm | None:
    """The generic form of kernel module `source` whose exports have `(ordinal, bindings,
    push constants)` `operands`, or None when no kernel has a literal to lift (or the
    source is not one the emitter writes)."""
    return _generic_form(source, tuple(operands))


@lru_cache(maxsize=256)
def _generic_form(source: str, operands: tuple[tuple[int, int, int], ...]) -> GenericForm | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    kernels = _kernels(tree)
    if set(kernels) != {o for o, _, _ in operands}:
        return None
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    taken |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    lifted: dict[int, tuple[int, ...]] = {}
    for ordinal, bindings, constants in operands:
        function = kernels[ordinal]
        if len(function.args.args) != GRID + bindings + constants:
            return None
        lifted[ordinal] = _lift(function, bindings, constants, taken)
    if not any(lifted.values()):
        return None
    return GenericForm(ast.unparse(tree) + "\n", tuple(lifted[o] for o in sorted(lifted)))


GRID = 5
"""A kernel's first arguments: `wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z`."""
BLOCK = "block"
"""A generic kernel's last argument: its C entry's argument block (`native_entries`)."""


def _kernels(tree: ast.Module) -> dict[int, ast.FunctionDef]:
    found = {}
    for node in tree.body:
        match = isinstance(node, ast.FunctionDef) and _KERNEL.fullmatch(node.name)
        if match and _is_jit(node):
            found[int(match.group(1))] = node
    return found


def _is_jit(node: ast.FunctionDef) -> bool:
    if len(node.decorator_list) != 1 or not isinstance(node.decorator_list[0], ast.Call):
        return False
    func = node.decorator_list[0].func
    return isinstance(func, ast.Attribute) and func.attr == "njit"


def _liftable(function: ast.FunctionDef, bindings: set[str]) -> list[ast.Constant]:
    """The integer literals of `function`'s body that may become parameters, in order: all
    but 0 and 1, and the offsets of the bindings' slices (`b0[0:64]`), 0 included."""
    kept: set[int] = set()
    offsets: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript):  # x[3], x[3, 4]: the index stays a literal
            index = node.slice
            items = index.elts if isinstance(index, ast.Tuple) else [index]
            kept.update(id(i) for i in items if isinstance(i, ast.Constant))
            if isinstance(node.value, ast.Name) and node.value.id in bindings:
                if isinstance(index, ast.Slice) and isinstance(index.lower, ast.Constant):
                    offsets.add(id(index.lower))
        elif _is_transpose(node):  # a permutation, not a size: the view's layout stays known
            kept.update(id(n) for a in node.args for n in ast.walk(a))
    found = []
    for statement in function.body:
        for node in ast.walk(statement):
            if (
                isinstance(node, ast.Constant)
                and type(node.value) is int
                and (node.value not in KEPT or id(node) in offsets)
                and 0 <= node.value <= INT64_MAX  # numba types a larger literal as uint64
                and id(node) not in kept
            ):
                found.append(node)
    found.sort(key=lambda n: (n.lineno, n.col_offset))
    return found


def _is_transpose(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "transpose"
    )


def _lift(function: ast.FunctionDef, bindings: int, constants: int, taken: set[str]) -> tuple:
    """Replace `function`'s liftable literals by names read from the argument block (one per
    literal), drop its unread constants and number its locals afresh; return the values, in
    order."""
    parameters = [a.arg for a in function.args.args]
    _drop_unread_constants(function)
    literals = _liftable(function, set(parameters[GRID : GRID + bindings]))
    names = [f"k{i}" for i in range(len(literals))]
    if not literals or taken.intersection(names) or BLOCK in taken:
        return ()
    _Replace({id(n): name for n, name in zip(literals, names, strict=True)}).visit(function)
    _renumber_locals(function)
    first = 3 + 2 * bindings + constants  # after the grid, the bindings and push constants
    reads = [
        ast.Assign([ast.Name(name, ast.Store())], _word(first + i), lineno=0)
        for i, name in enumerate(names)
    ]
    function.body[:0] = reads
    function.args.args.append(ast.arg(BLOCK))
    return tuple(n.value for n in literals)


def _word(index: int) -> ast.Subscript:
    return ast.Subscript(ast.Name(BLOCK, ast.Load()), ast.Constant(index), ast.Load())


def _drop_unread_constants(function: ast.FunctionDef) -> None:
    """Remove `name = <int literal>` statements whose name nothing in `function` reads (the
    emitter writes one per binding offset, folded into the slices since)."""
    read = {
        n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    for node in ast.walk(function):
        for field in ("body", "orelse"):
            statements = getattr(node, field, None)
            if isinstance(statements, list):
                kept = [s for s in statements if not _unread_constant(s, read)]
                if len(kept) < len(statements):
                    statements[:] = kept or [ast.Pass()]


def _unread_constant(statement: ast.stmt, read: set[str]) -> bool:
    return (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id not in read
        and isinstance(statement.value, ast.Constant)
        and type(statement.value.value) is int
    )


_LOCAL = re.compile(r"v\d+")


def _renumber_locals(function: ast.FunctionDef) -> None:
    """Rename the emitter's locals (`v<n>`) `v0, v1, ...` in order of first appearance."""
    every = [n for n in ast.walk(function) if isinstance(n, ast.Name)]
    stored = {n.id for n in every if isinstance(n.ctx, ast.Store) and _LOCAL.fullmatch(n.id)}
    order = sorted((n for n in every if n.id in stored), key=lambda n: (n.lineno, n.col_offset))
    names: dict[str, str] = {}
    for node in order:
        names.setdefault(node.id, f"v{len(names)}")
    others = {n.id for n in every if n.id not in stored} | {a.arg for a in function.args.args}
    if others.intersection(names.values()):
        return  # a global or an argument of that name: keep the emitter's numbering
    for node in order:
        node.id = names[node.id]


class _Replace(ast.NodeTransformer):
    def __init__(self, replacements: dict[int, str]):
        self.replacements = replacements

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        name = self.replacements.get(id(node))
        if name is None:
            return node
        return ast.copy_location(ast.Name(name, ast.Load()), node)
