"""Inputs for running a program: its entry function's argument types, and random arrays of them.

`compare` and the differential tests feed the same arrays to ireelab, the real IREE and numpy
eager; the types come from the program's public `func.func` (static shapes, as IREE's ABI
requires for these programs).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ShapedType

from ireelab.diagnostics import CompileError
from ireelab.eager import numpy_dtype


def entry_function(source: str, name: str | None = None) -> func.FuncOp:
    """The public `func.func` named `name`, or the program's first public one."""
    from ireelab.compiler.source import parse_source

    module = parse_source(source, "<compare>")
    functions = [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and (op.sym_visibility is None or op.sym_visibility.data == "public")
    ]
    if name is not None:
        functions = [op for op in functions if op.sym_name.data == name]
    if not functions:
        what = f"public function '{name}'" if name else "public func.func"
        raise CompileError(f"the program has no {what} to run")
    return functions[0]


def entry_signature(
    source: str, name: str | None = None
) -> tuple[str, list[tuple[tuple[int, ...], np.dtype]]]:
    """(function name, [(shape, dtype) per argument]); dynamic shapes are an error (the
    caller has to give inputs for those)."""
    chosen = entry_function(source, name)
    arguments = []
    for index, arg_type in enumerate(chosen.function_type.inputs.data):
        if not isinstance(arg_type, ShapedType):
            arguments.append(((), numpy_dtype(arg_type)))
            continue
        shape = tuple(arg_type.get_shape())
        if any(dim < 0 for dim in shape):
            raise CompileError.at(chosen, f"argument {index} has a dynamic shape; give the inputs")
        arguments.append((shape, numpy_dtype(arg_type)))
    return chosen.sym_name.data, arguments


def random_inputs(
    source: str, name: str | None = None, seed: int = 0
) -> tuple[str, list[np.ndarray]]:
    """Random arrays for every argument: floats in [-1, 1), integers in [-4, 4], random bools."""
    function, arguments = entry_signature(source, name)
    rng = np.random.default_rng(seed)
    arrays = [_random(rng, shape, dtype) for shape, dtype in arguments]
    return function, arrays


def _random(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-4, 5, size=shape).astype(dtype)
    return rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
