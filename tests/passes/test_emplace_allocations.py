"""EmplaceAllocationsPass (iree-stream-emplace-allocations)."""

from __future__ import annotations

from _stream_ir import parse, print_ir, run

from ireelab.compiler.stream.emplace_allocations import EmplaceAllocationsPass
from ireelab.dialects import stream

UPDATE = """
builtin.module {
  func.func @f(%r: !stream.resource<*>, %t: !stream.resource<*>) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %d = stream.async.dispatch @ex::@fn(%r[%c0 to %c64 for %c64]) : (!stream.resource<*>{%c64}) -> !stream.resource<*>{%c64}
    %w = stream.async.update %d, %t[%c64 to %c128] : !stream.resource<*>{%c64} -> %t as !stream.resource<*>{%c128}
    func.return %w : !stream.resource<*>
  }
}
"""


def _ops(module, kind) -> list:
    return [op for op in module.walk() if isinstance(op, kind)]


def test_update_of_a_dispatch_result_becomes_a_tied_dispatch():
    # the target range is appended as an operand and the result is tied to it (IREE's form)
    module = run(parse(UPDATE), EmplaceAllocationsPass())
    assert not _ops(module, stream.AsyncUpdateOp)
    (dispatch,) = _ops(module, stream.AsyncDispatchOp)
    assert dispatch.tied() == [1]
    text = print_ir(module)
    assert "(%r[%c0 to %c64 for %c64], %t[%c64 to %c128 for %c64])" in text
    assert "-> %t{%c128}" in text


def test_a_dispatch_reading_the_target_keeps_the_copy():
    # writing into the storage it reads would race; the update stays
    text = UPDATE.replace("@ex::@fn(%r[", "@ex::@fn(%t[").replace(
        ": (!stream.resource<*>{%c64}) -> !stream.resource<*>{%c64}",
        ": (!stream.resource<*>{%c128}) -> !stream.resource<*>{%c64}",
    )
    module = run(parse(text), EmplaceAllocationsPass())
    assert len(_ops(module, stream.AsyncUpdateOp)) == 1


def test_a_dispatch_result_read_twice_keeps_the_copy():
    text = UPDATE.replace(
        "func.return %w : !stream.resource<*>", "func.return %d : !stream.resource<*>"
    )
    module = run(parse(text), EmplaceAllocationsPass())
    assert len(_ops(module, stream.AsyncUpdateOp)) == 1


def test_plain_dispatches_are_left_alone():
    # with no updates there is nothing to emplace and the IR is unchanged
    text = UPDATE.replace(
        "    %w = stream.async.update %d, %t[%c64 to %c128] : !stream.resource<*>{%c64} -> %t as !stream.resource<*>{%c128}\n",
        "",
    ).replace("func.return %w", "func.return %d")
    before = print_ir(parse(text))
    assert print_ir(run(parse(text), EmplaceAllocationsPass())) == before
