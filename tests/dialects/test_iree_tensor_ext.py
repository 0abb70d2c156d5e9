"""The iree_tensor_ext dialect: dispatch tensors and their loads and stores, as IREE prints them."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType, f32
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ireelab.compiler.context import make_context
from ireelab.dialects import iree_tensor_ext as ite


def _print(op) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def _parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


BODY = """builtin.module {
  func.func @f(%0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>>, %1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x4xf32>>, %i: index) {
    %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [2, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>> -> tensor<2x4xf32>
    %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [%i, 0], sizes = [1, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>> -> tensor<1x4xf32>
    iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [0, 0], sizes = [2, 4], strides = [1, 1] : tensor<2x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x4xf32>>
    iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [%i, 0], sizes = [1, 4], strides = [1, 1] : tensor<1x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x4xf32>>
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    %4, %5, %6 = iree_tensor_ext.dispatch.workgroup_count_from_slice(%i)
    func.return
  }
}"""


def test_static_and_dynamic_slices_print_as_written():
    assert _print(_parse(BODY)) == BODY


def test_mixed_offsets_and_access():
    module = _parse(BODY)
    loads = [op for op in module.walk() if isinstance(op, ite.DispatchTensorLoadOp)]
    assert loads[0].mixed("offsets") == [0, 0]
    assert loads[1].mixed("offsets")[1] == 0 and not isinstance(loads[1].mixed("offsets")[0], int)
    source_type = loads[0].source.type
    assert source_type.access == ite.TensorAccess.readonly
    assert source_type.can_read and not source_type.can_write


def test_built_type_prints_like_iree():
    t = ite.DispatchTensorType("readwrite", TensorType(f32, [2, 4]))
    assert str(t) == "!iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x4xf32>>"
    count = ite.DispatchWorkgroupCountFromSliceOp()
    assert [r.name_hint for r in count.results] == ["x", "y", "z"]


def test_store_into_readonly_is_rejected():
    text = BODY.replace("writeonly", "readonly")
    with pytest.raises(VerifyException, match="readonly"):
        _parse(text)


def test_slice_rank_must_match():
    text = BODY.replace(
        "offsets = [0, 0], sizes = [2, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly",
        "offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly",
        1,
    )
    with pytest.raises(VerifyException, match="rank"):
        _parse(text)
