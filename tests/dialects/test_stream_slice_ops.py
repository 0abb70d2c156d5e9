"""`stream.tensor.{empty,slice,update}` and `stream.async.slice` parse IREE 3.13's text (the
lines below are copied from `iree-compile --mlir-print-ir-after-all` of a contiguous slice,
an update and a concat on the outer dimension) and print it back unchanged."""

from __future__ import annotations

import io

from xdsl.parser import Parser
from xdsl.printer import Printer

from ireelab.compiler.context import make_context
from ireelab.dialects import stream

AFF = "#hal.device.affinity<@__device_0>"
IREE_TEXT = f"""\
util.func public @f(%r: !stream.resource<*>, %u: !stream.resource<*>, %n: index, %m: index, %c0: index, %c2: index, %c16: index, %c128: index, %c256: index) {{
  %empty = stream.tensor.empty on({AFF}) : tensor<6x4xf32> in !stream.resource<*>{{%n}}
  %0 = stream.tensor.slice on({AFF}) %r[%c2, %c0 for %c2, %c16] : tensor<8x16xf32> in !stream.resource<*>{{%n}} -> tensor<2x16xf32> in !stream.resource<*>{{%m}}
  %1 = stream.tensor.update on({AFF}) %u, %r[%c2, %c0] : tensor<2x16xf32> in !stream.resource<*>{{%m}} -> tensor<8x16xf32> in %r as !stream.resource<*>{{%n}}
  %2 = stream.async.slice on({AFF}) %r[%c128 to %c256] : !stream.resource<*>{{%n}} -> !stream.resource<*>{{%c128}}
  util.return
}}
"""


def _round_trip(text: str) -> str:
    module = Parser(make_context(), text, "<test>").parse_module()
    module.verify()
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def test_iree_text_parses_and_prints_back() -> None:
    printed = _round_trip(IREE_TEXT)
    for line in IREE_TEXT.splitlines()[1:-2]:
        assert line.strip() in printed


def test_parsed_ops_know_their_operands() -> None:
    module = Parser(make_context(), IREE_TEXT, "<test>").parse_module()
    ops = {op.name: op for op in module.walk()}
    sliced = ops["stream.tensor.slice"]
    assert isinstance(sliced, stream.TensorSliceOp)
    assert [v.name_hint for v in sliced.start_indices] == ["c2", "c0"]
    assert [v.name_hint for v in sliced.lengths] == ["c2", "c16"]
    update = ops["stream.tensor.update"]
    assert isinstance(update, stream.TensorUpdateOp)
    assert update.target.name_hint == "r" and update.update.name_hint == "u"
    assert update.result.type == update.target.type
    async_slice = ops["stream.async.slice"]
    assert isinstance(async_slice, stream.AsyncSliceOp)
    assert async_slice.source_offset.name_hint == "c128"
