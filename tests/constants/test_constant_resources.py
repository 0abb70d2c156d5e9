"""Golden IR for the Stream, HAL and VM passes that carry a large constant from its
`util.global` to the module's read-only data: each pass runs alone on hand-written input shaped
as the pass before leaves it, and the expected text is what IREE 3.13 prints there
(`--mlir-print-ir-after-all` on a 1 KiB / 16 KiB weight), names and syntax included."""

from __future__ import annotations

import io
import re

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.compiler.context import make_context
from ireelab.compiler.hal.convert_to_hal import ConvertToHALPass
from ireelab.compiler.stream.convert_to_stream import ConvertToStreamPass
from ireelab.compiler.stream.elide_async_copies import ElideAsyncCopiesPass
from ireelab.compiler.stream.encode_host_tensors import EncodeHostTensorsPass
from ireelab.compiler.stream.pack_constants import PackConstantsPass, pack_layout
from ireelab.compiler.stream.refine_usage import RefineUsagePass
from ireelab.compiler.stream.schedule_allocation import ScheduleAllocationPass
from ireelab.compiler.util.fold_globals import FoldGlobalsPass
from ireelab.diagnostics import CompileError

CTX = make_context()
AFFINITY = "#hal.device.affinity<@__device_0>"
W = "dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>"
"""A small stand-in for a weight: the passes do not look at the size (the Flow stage does)."""
EOL_SPACE = " "
"""IREE prints `stream.resource.constants ... : ` with a space before the line break."""


def run(text: str, *passes) -> str:
    module = Parser(CTX, text).parse_module()
    module.verify()
    for p in passes:
        p.apply(CTX, module)
        module.verify()
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def parse(text: str) -> ModuleOp:
    module = Parser(CTX, text).parse_module()
    module.verify()
    return module


FLOW = f"""
builtin.module attributes {{stream.affinity.default = {AFFINITY}}} {{
  util.global private @__constant_tensor_2x3xf32 <inlining_policy = #util.inline.never> {{stream.affinity.default = {AFFINITY}}} = {W}
  util.func public @f(%arg0: !hal.buffer_view) -> !hal.buffer_view {{
    %w = util.global.load immutable @__constant_tensor_2x3xf32 : tensor<2x3xf32>
    %0 = hal.tensor.export %w "output0" : tensor<2x3xf32> -> !hal.buffer_view
    util.return %0 : !hal.buffer_view
  }}
}}
"""


def test_convert_to_stream_makes_a_constant_resource_global_and_its_initializer() -> None:
    # IREE: resource global + __size global, initializer storing tensor.constant and its size
    text = run(FLOW, ConvertToStreamPass())
    expected_init = f"""  util.global private @__constant_tensor_2x3xf32 : !stream.resource<constant>
  util.global private @__constant_tensor_2x3xf32__size : index
  util.initializer {{
    %cst = stream.tensor.constant on({AFFINITY}) : tensor<2x3xf32> in !stream.resource<constant> = dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
    %0 = stream.resource.size %cst : !stream.resource<constant>
    util.global.store %cst, @__constant_tensor_2x3xf32 : !stream.resource<constant>
    util.global.store %0, @__constant_tensor_2x3xf32__size : index
    util.return
  }}"""
    assert expected_init in text
    # the host loads both and transfers the constant to an undecided-lifetime resource
    assert (
        "%__constant_tensor_2x3xf32 = util.global.load @__constant_tensor_2x3xf32 : "
        "!stream.resource<constant>\n"
        "    %__constant_tensor_2x3xf32__size = util.global.load "
        "@__constant_tensor_2x3xf32__size : index\n"
        "    %0 = stream.async.transfer %__constant_tensor_2x3xf32 : !stream.resource<constant>"
        "{%__constant_tensor_2x3xf32__size} "
        f"from({AFFINITY}) -> to({AFFINITY}) !stream.resource<*>{{%__constant_tensor_2x3xf32__size}}"
    ) in text
    assert "tensor<2x3xf32> in !stream.resource<external>{%__constant_tensor_2x3xf32__size}" in text
    assert "inlining_policy" not in text


def test_convert_to_stream_rejects_a_mutable_tensor_global() -> None:
    # only immutable dense globals are constants; a variable has no stream lowering here
    source = FLOW.replace("util.global private @", "util.global private mutable @").replace(
        "util.global.load immutable", "util.global.load"
    )
    with pytest.raises(CompileError, match="tensor global @__constant_tensor_2x3xf32"):
        run(source, ConvertToStreamPass())


def test_encode_host_tensors_sizes_the_constant_and_folds_size_and_transfer() -> None:
    # tensor.constant -> async.constant{24 bytes}; resource.size folds; local transfer -> clone
    text = run(FLOW, ConvertToStreamPass(), EncodeHostTensorsPass())
    assert (
        "  util.initializer {\n"
        "    %c24 = arith.constant 24 : index\n"
        f"    %cst = stream.async.constant on({AFFINITY}) : !stream.resource<constant>{{%c24}} = "
    ) in text
    assert "util.global.store %c24, @__constant_tensor_2x3xf32__size : index" in text
    assert "stream.resource.size" not in text and "stream.async.transfer" not in text
    assert re.search(
        rf"%\w+ = stream.async.clone on\({AFFINITY}\) %__constant_tensor_2x3xf32 : "
        r"!stream.resource<constant>\{%__constant_tensor_2x3xf32__size\} -> "
        r"!stream.resource<\*>\{%__constant_tensor_2x3xf32__size\}",
        text,
    )


def test_fold_globals_inlines_the_size_and_marks_loads_immutable() -> None:
    # the __size global is the constant 24 everywhere; the resource global is init-only
    text = run(FLOW, ConvertToStreamPass(), EncodeHostTensorsPass(), FoldGlobalsPass())
    assert "__size" not in text
    assert (
        "%__constant_tensor_2x3xf32 = util.global.load immutable @__constant_tensor_2x3xf32"
    ) in text
    host = text[text.index("util.func public @f") :]
    assert "%c24 = arith.constant 24 : index" in host
    assert "!stream.resource<constant>{%c24} -> !stream.resource<*>{%c24}" in host


def test_fold_globals_keeps_globals_stored_outside_initializers() -> None:
    # a global a function stores is neither immutable nor a constant
    text = run(
        """
builtin.module {
  util.global private mutable @g : index
  util.initializer {
    %c1 = arith.constant 1 : index
    util.global.store %c1, @g : index
    util.return
  }
  util.func public @f(%x: index) -> index {
    util.global.store %x, @g : index
    %v = util.global.load @g : index
    util.return %v : index
  }
}""",
        FoldGlobalsPass(),
    )
    assert "%v = util.global.load @g : index" in text
    assert "util.global private mutable @g : index" in text


def test_refine_usage_makes_an_exported_copy_of_a_constant_external() -> None:
    # IREE 3.13 copies a returned constant into a new external buffer (stream.cmd.copy from the
    # constant resource): the clone's result reaches the boundary, so it is external, and the
    # second ElideAsyncCopies keeps it (the caller must not get the module's read-only memory)
    stages = (ConvertToStreamPass(), EncodeHostTensorsPass(), FoldGlobalsPass())
    refined = run(FLOW, *stages, RefineUsagePass())
    assert re.search(
        r"stream.async.clone on\(.*\) %__constant_tensor_2x3xf32 : "
        r"!stream.resource<constant>\{%c24\} -> !stream.resource<external>\{%c24\}",
        refined,
    )
    elided = run(FLOW, *stages, RefineUsagePass(), ElideAsyncCopiesPass())
    assert "stream.async.clone" in elided
    assert "!stream.resource<constant>{%c24} -> !stream.resource<external>" in elided


INITIALIZER = f"""
builtin.module {{
  util.global private @a : !stream.resource<constant>
  util.global private @b : !stream.resource<constant>
  util.initializer {{
    %c24 = arith.constant 24 : index
    %c280 = arith.constant 280 : index
    %cst = stream.async.constant on({AFFINITY}) : !stream.resource<constant>{{%c24}} = {W}
    %cst_0 = stream.async.constant on({AFFINITY}) : !stream.resource<constant>{{%c280}} = dense<1> : tensor<70xi32>
    util.global.store %cst, @a : !stream.resource<constant>
    util.global.store %cst_0, @b : !stream.resource<constant>
    util.return
  }}
}}
"""


def test_schedule_allocation_makes_one_resource_constants_op_awaited_sync() -> None:
    # both constants of the block in one op, ready at its timepoint
    text = run(INITIALIZER, ScheduleAllocationPass())
    expected = f"""    %results, %results_1, %result_timepoint = stream.resource.constants on({AFFINITY}) :{EOL_SPACE}
      !stream.resource<constant>{{%c24}} = dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>,
      !stream.resource<constant>{{%c280}} = dense<1> : tensor<70xi32>
      => !stream.timepoint
"""
    assert expected in text
    assert re.search(
        r"(%\w+), (%\w+) = stream.timepoint.await sync %result_timepoint => %results, "
        r"%results_1 : !stream.resource<constant>\{%c24\}, !stream.resource<constant>\{%c280\}"
        r"\n    util.global.store \1, @a : !stream.resource<constant>"
        r"\n    util.global.store \2, @b : !stream.resource<constant>",
        text,
    )


def test_pack_layout_pads_every_value_to_64_bytes() -> None:
    # IREE packs 360 + 280 bytes into 704: offsets 0 and 384
    assert pack_layout([360, 280]) == ([0, 384], 704)
    assert pack_layout([16384]) == ([0], 16384)
    assert pack_layout([]) == ([], 0)


def test_pack_constants_maps_one_padded_buffer_and_subviews_it() -> None:
    # the composite holds each value then its zero padding; try_map, one subview per value
    text = run(INITIALIZER, ScheduleAllocationPass(), PackConstantsPass())
    assert (
        "%buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = "
        "#util.composite<384xi8, [\n"
        "    dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, "
        "6.000000e+00]]> : tensor<2x3xf32>,\n"
        "    dense<0> : vector<40xi8>,\n"
        "    dense<1> : tensor<70xi32>,\n"
        "    dense<0> : vector<40xi8>,\n"
        "]>"
    ) in text
    assert (
        f"%did_map, %result = stream.resource.try_map on({AFFINITY}) %buffer_cst[%c0] : "
        "!util.buffer -> i1, !stream.resource<constant>{%c384}"
    ) in text
    assert "stream.resource.subview %result[%c0] : !stream.resource<constant>{%c384} -> " in text
    assert "stream.resource.subview %result[%c64] : !stream.resource<constant>{%c384} -> " in text
    assert "stream.resource.constants" not in text
    assert "stream.timepoint.immediate" in text


def test_pack_constants_composite_bytes_are_the_values_in_order() -> None:
    # the buffer's bytes: little-endian f32 values, zeros, then the i32 splat expanded
    import numpy as np

    text = run(INITIALIZER, ScheduleAllocationPass(), PackConstantsPass())
    module = parse(text)
    buffer = next(op for op in module.walk() if op.name == "util.buffer.constant")
    data = buffer.data()
    assert len(data) == 384
    np.testing.assert_array_equal(
        np.frombuffer(data[:24], np.float32), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    )
    assert data[24:64] == bytes(40)
    np.testing.assert_array_equal(np.frombuffer(data[64:344], np.int32), np.ones(70))


HAL_INPUT = f"""
builtin.module {{
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"numba-cpu", "numba-python", {{native_vector_size = 64 : i64, target_triple = "x86_64-unknown-linux"}}>]> : !hal.device
  util.global private @__constant_tensor_2x3xf32 : !stream.resource<constant>
  util.initializer {{
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<64xi8, [
      {W},
      dense<0> : vector<40xi8>,
    ]>
    %did_map, %result = stream.resource.try_map on({AFFINITY}) %buffer_cst[%c0] : !util.buffer -> i1, !stream.resource<constant>{{%c64}}
    util.global.store %result, @__constant_tensor_2x3xf32 : !stream.resource<constant>
    util.return
  }}
}}
"""


def test_convert_to_hal_imports_the_constant_buffer() -> None:
    # IREE: the allocator imports the module's bytes (SharingImmutable usage), no copy
    text = run(HAL_INPUT, ConvertToHALPass())
    assert "util.global private @__constant_tensor_2x3xf32 : !hal.buffer" in text
    assert (
        'hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|'
        'DispatchStorageWrite|DispatchStorage|SharingImmutable"> : i32'
    ) in text
    assert re.search(
        r"%did_import, %mapped = hal.allocator.import<%allocator : !hal.allocator> "
        r"source\(%buffer_cst : !util.buffer\)\[%c0, %c64\] affinity\(%c-1_i64\) "
        r"type\(%memory_type\) usage\(%buffer_usage\) : i1, !hal.buffer",
        text,
    )
    assert "util.global.store %mapped, @__constant_tensor_2x3xf32 : !hal.buffer" in text
    assert "stream." not in text


def test_vm_conversion_makes_rodata_and_calls_the_import() -> None:
    # IREE: vm.rodata @_const <alignment = 64> #util.composite<...>, try = 1
    from ireelab.compiler.vm.conversion import ConversionPass

    text = run(HAL_INPUT, ConvertToHALPass(), ConversionPass())
    assert "vm.rodata private @_const <alignment = 64> #util.composite<64xi8, [" in text
    assert "%_const = vm.const.ref.rodata @_const : !vm.buffer" in text
    assert re.search(
        r"vm.import private @hal.allocator.import\(%allocator : !vm.ref<!hal.allocator>, "
        r"%try : i32, %queue_affinity : i64, %memory_types : i32, %buffer_usage : i32, "
        r"%source : !vm.buffer, %offset : i64, %length : i64\) -> !vm.ref<!hal.buffer>",
        text,
    )
    assert re.search(
        r"%mapped = vm.call @hal.allocator.import\(%\w+, %\w+, %c-1_i64, %\w+, %\w+, %_const, "
        r"%\w+, %\w+\) : \(!vm.ref<!hal.allocator>, i32, i64, i32, i32, !vm.buffer, i64, i64\)"
        r" -> !vm.ref<!hal.buffer>",
        text,
    )
    assert "vm.global.store.ref %mapped, @__constant_tensor_2x3xf32" in text


IREE_PRINTED = f"""
util.func public @f(%allocator: !hal.allocator) -> (!stream.resource<constant>, !hal.buffer) {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c-1_i64 = arith.constant -1 : i64
  %c1_i32 = arith.constant 1 : i32
  %results, %result_timepoint = stream.resource.constants on({AFFINITY}) :{EOL_SPACE}
    !stream.resource<constant>{{%c16}} = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
    => !stream.timepoint
  %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<16xi8, [
    dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>,
]>
  %did_map, %result = stream.resource.try_map on({AFFINITY}) %buffer_cst[%c0] : !util.buffer -> i1, !stream.resource<constant>{{%c16}}
  %cst = stream.tensor.constant on({AFFINITY}) : tensor<4xf32> in !stream.resource<constant> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %cst_0 = stream.async.constant on({AFFINITY}) : !stream.resource<constant>{{%c16}} = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %did_import, %mapped = hal.allocator.import<%allocator : !hal.allocator> source(%buffer_cst : !util.buffer)[%c0, %c16] affinity(%c-1_i64) type(%c1_i32) usage(%c1_i32) : i1, !hal.buffer
  util.return %results, %mapped : !stream.resource<constant>, !hal.buffer
}}
"""
"""Text `iree-opt` 3.13 prints for these ops (checked with the real tool)."""


def test_ireelab_parses_and_reprints_what_iree_prints() -> None:
    # every new op parses from IREE's text and prints it back unchanged (but SSA grouping)
    text = run("builtin.module {" + IREE_PRINTED + "}")
    anonymous = re.sub(r"%[\w-]+", "%_", text)
    for line in IREE_PRINTED.strip().splitlines()[1:-1]:
        assert re.sub(r"%[\w-]+", "%_", line.strip()) in anonymous
    assert run(text) == text
