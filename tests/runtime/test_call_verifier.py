"""Calls in a module's bytecode are checked against their callees' signatures at load.

The module here is a real compiled one; each test changes one decoded call (or one import
declaration) the way damaged bytecode would, and `verify_calls` must refuse it with one
`ModuleFileError` naming the function and the callee.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import ireelab
from ireelab.runtime import load_module
from ireelab.runtime.errors import ModuleFileError
from ireelab.runtime.vm.call_verifier import verify_calls
from ireelab.runtime.vm.decoder import DecodedFunction, Instruction, decode_function
from ireelab.runtime.vm.module_file import ModuleImage, read_module
from ireelab.schemas.vm_opcodes import BANK_SHIFT, IMPORT_BIT

VALID_ADD = Path(__file__).resolve().parents[1] / "bad_inputs" / "valid_add.mlir"


@pytest.fixture(scope="module")
def module() -> tuple[ModuleImage, list[DecodedFunction]]:
    data = ireelab.compile(str(VALID_ADD), device="local-sync").module_bytes
    image = read_module(data)
    decoded = [decode_function(f.name, f.code, f.registers, f.block_count) for f in image.functions]
    return image, decoded


def _import_index(image: ModuleImage, name: str) -> int:
    return next(i for i, entry in enumerate(image.imports) if entry["name"] == name)


def _replace_call(decoded, callee: int, change) -> list[DecodedFunction]:
    """`decoded` with the first call of `callee` replaced by `change(instruction)`."""
    for f_index, function in enumerate(decoded):
        for b_index, block in enumerate(function.blocks):
            for i_index, ins in enumerate(block):
                if ins.name.startswith("call") and ins.operands[0] == callee:
                    blocks = [list(b) for b in function.blocks]
                    blocks[b_index][i_index] = change(ins)
                    copy = list(decoded)
                    copy[f_index] = dataclasses.replace(function, blocks=blocks)
                    return copy
    raise AssertionError("no such call")


def test_the_compiled_module_passes(module):
    verify_calls(*module)


def test_a_call_with_an_operand_too_few(module):
    image, decoded = module
    callee = IMPORT_BIT | _import_index(image, "hal.fence.await")

    def drop_one(ins: Instruction) -> Instruction:
        _callee, segments, regs, block, results = ins.operands
        return Instruction(ins.name, (callee, segments[1:], regs[1:], block, results))

    with pytest.raises(ModuleFileError, match="call of import 'hal.fence.await' does not pass"):
        verify_calls(image, _replace_call(decoded, callee, drop_one))


def test_a_ref_where_an_i32_goes(module):
    image, decoded = module
    callee = IMPORT_BIT | _import_index(image, "hal.fence.await")

    def ref_timeout(ins: Instruction) -> Instruction:
        _callee, segments, regs, block, results = ins.operands
        regs = (2 << BANK_SHIFT, *regs[1:])
        return Instruction(ins.name, (callee, segments, regs, block, results))

    with pytest.raises(ModuleFileError, match="does not pass the operands it takes"):
        verify_calls(image, _replace_call(decoded, callee, ref_timeout))


def test_a_variadic_segment_of_the_wrong_width(module):
    image, decoded = module
    callee = IMPORT_BIT | _import_index(image, "hal.command_buffer.dispatch")

    def widen(ins: Instruction) -> Instruction:
        _callee, segments, regs, results = ins.operands
        size, width = segments[-1]
        segments = (*segments[:-1], (size, width + 1))
        return Instruction(ins.name, (callee, segments, regs, results))

    with pytest.raises(ModuleFileError, match="hal.command_buffer.dispatch"):
        verify_calls(image, _replace_call(decoded, callee, widen))


def test_a_result_too_many(module):
    image, decoded = module
    callee = IMPORT_BIT | _import_index(image, "hal.fence.create")

    def more(ins: Instruction) -> Instruction:
        _callee, regs, results = ins.operands
        return Instruction(ins.name, (callee, regs, (*results, results[0])))

    with pytest.raises(ModuleFileError, match="does not receive the results it returns"):
        verify_calls(image, _replace_call(decoded, callee, more))


def test_an_import_declared_with_other_operands_than_the_runtime_takes(module):
    image, decoded = module
    index = _import_index(image, "hal.fence.await")
    imports = [dict(entry) for entry in image.imports]
    imports[index]["args"] = imports[index]["args"][1:]
    with pytest.raises(ModuleFileError, match="with 2 operands; the runtime's hal module takes 3"):
        verify_calls(dataclasses.replace(image, imports=imports), decoded)


def test_an_import_the_runtime_does_not_provide(module):
    image, decoded = module
    imports = [dict(entry) for entry in image.imports]
    imports[0]["name"] = "hal.format_disk"
    with pytest.raises(ModuleFileError, match="'hal.format_disk'"):
        verify_calls(dataclasses.replace(image, imports=imports), decoded)


def test_load_module_runs_the_check(module, monkeypatch):
    calls = []
    monkeypatch.setattr("ireelab.runtime.loaded_module.verify_calls", lambda *a: calls.append(a))
    load_module(ireelab.compile(str(VALID_ADD), device="local-sync").module_bytes)
    assert len(calls) == 1
