"""Check every call in a module's bytecode against the signature of what it calls, at load.

IREE's bytecode verifier (`iree/vm/bytecode/verifier.c`) checks, before a module runs, that
each call's operand and result registers fit the callee's calling convention, and its context
refuses an import whose signature differs from the one the providing module exports. ireelab
does both when a module file is loaded, so damaged bytecode that still decodes (a call with a
register too many, a tuple segment of the wrong width, a ref passed where an i32 goes) fails
with one `ModuleFileError` instead of a raw `TypeError` deep inside the hal module:

- each `hal.*` import the module declares must exist in the runtime's hal module and take as
  many operands as its method does (a variadic operand is one list);
- each `vm.call` / `vm.call.variadic` / `vm.call.variadic.yieldable` passes one register per
  declared operand, in the bank of its type (i32, i64 or ref), variadic operands as segments
  of the tuple's width, and receives as many results, in the right banks, as the callee
  returns;
- each `vm.return` returns what its function's signature says.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from functools import cache

from ireelab.runtime.check_module import CheckModule
from ireelab.runtime.errors import ModuleFileError
from ireelab.runtime.hal.module import HALModule, import_method
from ireelab.runtime.vm.decoder import DecodedFunction, Instruction
from ireelab.runtime.vm.module_file import ModuleImage
from ireelab.schemas.vm_opcodes import BANK_I32, BANK_I64, BANK_REF, BANK_SHIFT, IMPORT_BIT

_CALLS = ("call", "call.variadic", "call.variadic.yieldable")

Operand = tuple[bool, tuple[int, ...]]
"""(variadic?, register bank of each element: one for a scalar or ref, N for a tuple<...>)."""


def bank_of(type_text: str) -> int:
    """The register bank holding values of a VM type (`i32`, `f32`, `i64`, `!vm.ref<...>`)."""
    if type_text in ("i32", "f32"):
        return BANK_I32
    if type_text == "i64":
        return BANK_I64
    if type_text.startswith("!vm."):
        return BANK_REF
    raise ModuleFileError(f"module file uses the unknown VM type '{type_text}'")


def _tuple_banks(type_text: str) -> tuple[int, ...]:
    if not (type_text.startswith("tuple<") and type_text.endswith(">")):
        return (bank_of(type_text),)
    inner, parts, depth, start = type_text[6:-1], [], 0, 0
    for i, char in enumerate(inner):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    parts.append(inner[start:].strip())
    return tuple(bank_of(p) for p in parts)


@cache
def _hal_arity(name: str) -> int | None:
    """Operands the runtime's hal (or check) module takes for import `name`, or None if it
    has none."""
    if name.startswith("check."):
        function = getattr(CheckModule, name.removeprefix("check."), None)
    else:
        method = import_method(name)
        function = getattr(HALModule, method) if method is not None else None
    if function is None:
        return None
    parameters = list(inspect.signature(function).parameters.values())[1:]
    return len(parameters)


def _import_signature(entry: dict) -> tuple[str, list[Operand], tuple[int, ...]]:
    name = str(entry["name"])
    arity = _hal_arity(name)
    if arity is None:
        raise ModuleFileError(
            f"module imports '{name}', which the runtime's "
            f"{name.partition('.')[0]} module does not provide"
        )
    operands = [(bool(variadic), _tuple_banks(str(t))) for _name, t, variadic in entry["args"]]
    if len(operands) != arity:
        raise ModuleFileError(
            f"module declares import '{name}' with {len(operands)} operands; the runtime's "
            f"{name.partition('.')[0]} module takes {arity}"
        )
    return name, operands, tuple(bank_of(str(t)) for t in entry["results"])


def verify_calls(image: ModuleImage, decoded: Sequence[DecodedFunction]) -> None:
    """Raise `ModuleFileError` for the first call or return that does not fit its callee."""
    try:
        imports = [_import_signature(entry) for entry in image.imports]
        functions = [
            (
                [(False, (bank_of(str(t)),)) for t in f.inputs],
                tuple(bank_of(str(t)) for t in f.outputs),
            )
            for f in image.functions
        ]
    except (KeyError, TypeError, ValueError) as err:
        raise ModuleFileError(f"module file has a malformed signature: {err!r}") from None
    for index, function in enumerate(decoded):
        inputs, outputs = functions[index]
        if _banks(function.arguments) != tuple(b for _v, (b,) in inputs):
            raise _bad(function, "its arguments do not match its signature")
        for block in function.blocks:
            for ins in block:
                if ins.name in _CALLS:
                    _check_call(function, ins, imports, functions)
                elif ins.name == "return" and _banks(ins.operands[0]) != outputs:
                    raise _bad(function, "a return does not match its signature")


def _check_call(function: DecodedFunction, ins: Instruction, imports, functions) -> None:
    callee = ins.operands[0]
    if callee & IMPORT_BIT:
        index = callee & ~IMPORT_BIT
        if index >= len(imports):
            raise _bad(function, f"a call names import ordinal {index}, which does not exist")
        name, operands, results = imports[index]
        what = f"import '{name}'"
    else:
        if callee >= len(functions):
            raise _bad(function, f"a call names function ordinal {callee}, which does not exist")
        operands, results = functions[callee]
        what = f"function ordinal {callee}"
    if ins.name == "call":
        segments = None
        _callee, arg_regs, result_regs = ins.operands
    elif ins.name == "call.variadic":
        _callee, segments, arg_regs, result_regs = ins.operands
    else:
        _callee, segments, arg_regs, _block, result_regs = ins.operands
    if _expected_banks(operands, segments) != _banks(arg_regs):
        raise _bad(function, f"a call of {what} does not pass the operands it takes")
    if _banks(result_regs) != results:
        raise _bad(function, f"a call of {what} does not receive the results it returns")


def _expected_banks(operands: list[Operand], segments) -> tuple[int, ...] | None:
    """The banks of the registers a call must pass, or None if its segments cannot fit."""
    if segments is None:
        if any(variadic for variadic, _banks in operands):
            return None
        return tuple(b for _v, (b,) in operands)
    if len(segments) != len(operands):
        return None
    expected: list[int] = []
    for (size, width), (variadic, banks) in zip(segments, operands, strict=True):
        if not variadic:
            if size >= 0 or len(banks) != 1:
                return None
            expected.append(banks[0])
        elif size < 0 or width != len(banks):
            return None
        else:
            expected.extend(banks * size)
    return tuple(expected)


def _banks(registers: Sequence[int]) -> tuple[int, ...]:
    return tuple(r >> BANK_SHIFT for r in registers)


def _bad(function: DecodedFunction, message: str) -> ModuleFileError:
    return ModuleFileError(f"bytecode of function '{function.name}' is invalid: {message}")
