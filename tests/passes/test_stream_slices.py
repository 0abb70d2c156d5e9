"""Contiguous slices and updates in the Stream stage: EncodeHostTensors' byte ranges (and its
located refusals), the hazards ScheduleConcurrency asks about, and allocation of tied updates.

Golden text of the whole path is in tests/filecheck/stream/contiguous_slices.mlir."""

from __future__ import annotations

import pytest
from _stream_ir import parse, print_ir, run
from xdsl.dialects.builtin import Float32Type, TensorType

from ireelab.compiler.stream.encode_host_tensors import EncodeHostTensorsPass
from ireelab.compiler.stream.host_slices import contiguous_byte_range
from ireelab.compiler.stream.resource_hazards import has_hazard
from ireelab.compiler.stream.schedule_concurrency import ScheduleConcurrencyPass
from ireelab.compiler.stream.schedule_execution import ScheduleExecutionPass
from ireelab.diagnostics import CompileError
from ireelab.dialects import stream

AFF = "#hal.device.affinity<@__device_0>"


def _slice_module(starts: str, lengths: str, result: str) -> str:
    return f"""
builtin.module {{
  func.func @f(%r: !stream.resource<*>, %n: index, %m: index, %i: index) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %s = stream.tensor.slice on({AFF}) %r[{starts} for {lengths}] : tensor<8x16xf32> in !stream.resource<*>{{%n}} -> {result} in !stream.resource<*>{{%m}}
    func.return
  }}
}}
"""


def test_rows_of_a_row_major_tensor_are_one_byte_range():
    module = run(
        parse(_slice_module("%c2, %c0", "%c2, %c16", "tensor<2x16xf32>")), EncodeHostTensorsPass()
    )
    assert "stream.async.slice on(" in print_ir(module)
    assert "%r[%c128 to %c256] : !stream.resource<*>{%n} -> !stream.resource<*>{%m}" in print_ir(
        module
    )


def test_part_of_one_row_is_one_byte_range():
    # a unit outer length, then a partial inner run: still contiguous
    module = run(
        parse(_slice_module("%c7, %c4", "%c1, %c2", "tensor<1x2xf32>")), EncodeHostTensorsPass()
    )
    assert "[%c464 to %c472]" in print_ir(module)


@pytest.mark.parametrize(
    ("starts", "lengths", "result", "message"),
    [
        ("%c2, %c4", "%c2, %c4", "tensor<2x4xf32>", "not one contiguous run"),
        ("%c7, %c0", "%c2, %c16", "tensor<2x16xf32>", "out of bounds"),
    ],
)
def test_slices_that_are_not_one_static_run_are_refused(starts, lengths, result, message):
    module = parse(_slice_module(starts, lengths, result))
    with pytest.raises(CompileError, match=message) as info:
        run(module, EncodeHostTensorsPass())
    assert info.value.stage == "stream"


def test_byte_range_counts_element_width():
    f32 = TensorType(Float32Type(), [4, 3, 5])
    assert contiguous_byte_range(None, f32, [1, 2, 0], [1, 1, 5]) == ((15 + 10) * 4, 20)
    assert contiguous_byte_range(None, f32, [2, 0, 0], [2, 3, 5]) == (30 * 4, 120)


CHAIN = f"""
builtin.module {{
  func.func @f(%x: f32) -> !stream.resource<*> {{
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c80 = arith.constant 80 : index
    %a = stream.async.splat on({AFF}) %x : f32 -> !stream.resource<*>{{%c32}}
    %b = stream.async.splat on({AFF}) %x : f32 -> !stream.resource<*>{{%c48}}
    %e = stream.async.alloca on({AFF}) : !stream.resource<*>{{%c80}}
    %u0 = stream.async.update on({AFF}) %a, %e[%c0 to %c32] : !stream.resource<*>{{%c32}} -> %e as !stream.resource<*>{{%c80}}
    %u1 = stream.async.update on({AFF}) %b, %u0[%c32 to %c80] : !stream.resource<*>{{%c48}} -> %u0 as !stream.resource<*>{{%c80}}
    %u2 = stream.async.update on({AFF}) %a, %u1[%c32 to %c64] : !stream.resource<*>{{%c32}} -> %u1 as !stream.resource<*>{{%c80}}
    func.return %u2 : !stream.resource<*>
  }}
}}
"""


def _ops(module, kind):
    return [op for op in module.walk() if isinstance(op, kind)]


def test_updates_of_disjoint_ranges_have_no_hazard_overlapping_ones_do():
    alloca, *_ = _ops(parse(CHAIN), stream.AsyncAllocaOp)
    u0, u1, u2 = _ops(alloca.parent_block().parent_op(), stream.AsyncUpdateOp)
    assert not has_hazard(u0, u1)  # [0, 32) then [32, 80) of one storage
    assert has_hazard(u1, u2)  # [32, 80) then [32, 64)
    assert has_hazard(alloca, u0)  # an alloca has no byte ranges: always ordered


SYMBOLIC_CHAIN = f"""
builtin.module {{
  func.func @f(%x: f32, %n: index, %m: index, %k: index) -> !stream.resource<*> {{
    %c0 = arith.constant 0 : index
    %total = arith.addi %n, %m : index
    %a = stream.async.splat on({AFF}) %x : f32 -> !stream.resource<*>{{%n}}
    %b = stream.async.splat on({AFF}) %x : f32 -> !stream.resource<*>{{%m}}
    %e = stream.async.alloca on({AFF}) : !stream.resource<*>{{%total}}
    %u0 = stream.async.update on({AFF}) %a, %e[%c0 to %n] : !stream.resource<*>{{%n}} -> %e as !stream.resource<*>{{%total}}
    %u1 = stream.async.update on({AFF}) %b, %u0[%n to %total] : !stream.resource<*>{{%m}} -> %u0 as !stream.resource<*>{{%total}}
    %u2 = stream.async.update on({AFF}) %b, %u1[%k to %total] : !stream.resource<*>{{%m}} -> %u1 as !stream.resource<*>{{%total}}
    func.return %u2 : !stream.resource<*>
  }}
}}
"""


def test_run_time_bounds_are_apart_only_where_one_range_ends_at_the_others_start():
    """IREE's `doesRangeOverlap`: with sizes known only at run time, [0, n) and [n, n + m)
    are adjacent (a concat of `?` inputs); [n, n + m) and [k, n + m) may overlap."""
    alloca, *_ = _ops(parse(SYMBOLIC_CHAIN), stream.AsyncAllocaOp)
    u0, u1, u2 = _ops(alloca.parent_block().parent_op(), stream.AsyncUpdateOp)
    assert not has_hazard(u0, u1)
    assert has_hazard(u1, u2)
    module = run(parse(SYMBOLIC_CHAIN), ScheduleExecutionPass(), ScheduleConcurrencyPass())
    waves = [
        [op for op in c.body.block.ops if isinstance(op, stream.AsyncUpdateOp)]
        for c in _ops(module, stream.AsyncConcurrentOp)
    ]
    assert [len(w) for w in waves if w] == [2]  # u0 and u1 together, u2 after them


def test_disjoint_updates_share_a_concurrent_wave():
    module = run(parse(CHAIN), ScheduleExecutionPass(), ScheduleConcurrencyPass())
    waves = [
        [op.name for op in c.body.block.ops if isinstance(op, stream.AsyncUpdateOp)]
        for c in _ops(module, stream.AsyncConcurrentOp)
    ]
    assert [len(w) for w in waves] == [0, 2]  # the splats and the alloca, then u0 and u1
    # u2 overwrites bytes u1 wrote, so it waits outside the concurrent block
