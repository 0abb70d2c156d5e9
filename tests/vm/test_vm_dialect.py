"""The vm dialect reads and prints IREE 3.13's VM IR (`a0_matmul_tiny.vm.mlir`) unchanged."""

from __future__ import annotations

import re

from vm_programs import REFERENCE_VM, parse_vm

from ireelab.dialects import vm


def _ops(text: str) -> list[str]:
    return re.findall(r"\b(vm\.[a-z0-9_.]+)\b(?=[ (@%<]|$)", text, flags=re.M)


def test_reference_vm_round_trips():
    # IREE's own output parses, verifies, prints, and parses again to the same text.
    text = REFERENCE_VM.read_text()
    first = str(parse_vm(text))
    second = str(parse_vm(first))
    assert first == second
    # Every op IREE printed is printed back, in the same order.
    assert _ops(first) == _ops(text)


def test_reference_import_lines_print_as_iree():
    # Import declarations (names, argument names, variadic `...`, tuples, attributes) match.
    text = REFERENCE_VM.read_text()
    expected = [line.strip() for line in text.splitlines() if "vm.import" in line]
    printed = [line.strip() for line in str(parse_vm(text)).splitlines() if "vm.import" in line]
    assert printed == expected


def test_calls_and_rodata_print_as_iree():
    # The custom syntaxes: variadic calls with tuple groups, yieldable calls, string rodata.
    printed = str(parse_vm(REFERENCE_VM.read_text()))
    assert "[(%zero, %zero, %null, %zero_1, %c32), " in printed
    assert (
        "<segment_sizes = dense<[-1, -1, 1]> : vector<3xi16>, segment_types = "
        "[i32, i64, !vm.ref<!hal.fence>]> : (i32, i64, !vm.ref<!hal.fence>) -> ^bb1 (i32)"
    ) in printed
    assert 'vm.rodata private @_utf8_local_1A8FF0278D7661D8 <alignment = 1> "local*"' in printed
    assert 'vm.fail %0, "failed to wait on timepoint"' in printed


def test_op_names_are_iree_spellings():
    # Sign suffixes come last, as in IREE (`vm.cmp.lt.i64.s`, `vm.div.i32.u`).
    names = {op.name for op in vm.VM.operations}
    for name in ("vm.cmp.lt.i64.s", "vm.div.i32.u", "vm.shr.i64.s", "vm.cmp.nz.ref",
                 "vm.select.ref", "vm.ext.i32.i64.s", "vm.trunc.i64.i32",
                 "vm.call.variadic.yieldable", "vm.discard.refs", "vm.const.ref.rodata"):  # fmt: skip
        assert name in names
    assert vm.op_class("vm.add.i32").__name__ == "AddI32Op"
