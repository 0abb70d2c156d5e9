"""The util dialect: IREE's spelling of functions, globals and initializers, and their symbols."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import CallableOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from ireelab.compiler.context import make_context
from ireelab.dialects import hal, util


def _print(op) -> str:
    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def _parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


PROGRAM = """builtin.module {
  util.global private @__device_0 : !hal.device
  util.global private mutable @counter = 0 : i32
  util.global private @cmd : !hal.command_buffer
  util.initializer {
    %0 = util.null : !hal.device
    %1 = util.cmp.eq %0, %0 : !hal.device
    %c18_i32 = arith.constant 18 : i32
    util.status.check_ok %c18_i32, "HAL device `__device_0` not found: #hal.device.target<\\22local\\22>"
    util.global.store %0, @__device_0 : !hal.device
    util.return
  }
  util.func private @helper(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never} {
    %dev = util.global.load immutable @__device_0 : !hal.device
    util.return %arg0 : !hal.buffer_view
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main"}} {
    %0 = util.call @helper(%arg0) : (!hal.buffer_view) -> !hal.buffer_view
    %counter = util.global.load @counter : i32
    util.return %0 : !hal.buffer_view
  }
}"""


def test_program_prints_as_written():
    # util's syntax is IREE's: the printed text is the input, line for line
    assert _print(_parse(PROGRAM)) == PROGRAM


def test_symbols_and_callables():
    module = _parse(PROGRAM)
    call = next(op for op in module.walk() if isinstance(op, util.CallOp))
    callee = SymbolTable.lookup_symbol(call, call.callee)
    assert isinstance(callee, util.FuncOp)
    interface = callee.get_trait(CallableOpInterface)
    assert interface.get_argument_types(callee) == (hal.BufferViewType(),)
    assert interface.get_callable_region(callee) is callee.body
    glob = SymbolTable.lookup_symbol(module, "__device_0")
    assert isinstance(glob, util.GlobalOp) and glob.type == hal.DeviceType()


def test_built_ops_print_like_iree():
    func = util.FuncOp("f", ([hal.BufferViewType()], [hal.BufferViewType()]))
    func.body.block.add_op(util.ReturnOp(func.args[0]))
    glob = util.GlobalOp("__device_0", hal.DeviceType())
    text = _print(ModuleOp([glob, func]))
    assert "util.global private @__device_0 : !hal.device" in text
    assert "util.func public @f(%0: !hal.buffer_view) -> !hal.buffer_view {" in text
    _parse(text)


def test_call_to_missing_function_is_rejected():
    text = """builtin.module {
  util.func public @f() {
    util.call @nowhere() : () -> ()
    util.return
  }
}"""
    with pytest.raises(VerifyException, match="nowhere"):
        _parse(text)


def test_global_load_type_must_match():
    text = """builtin.module {
  util.global private @g : i32
  util.func public @f() {
    %0 = util.global.load @g : i64
    util.return
  }
}"""
    with pytest.raises(VerifyException, match="does not match"):
        _parse(text)


def test_return_types_must_match_function():
    text = """builtin.module {
  util.func public @f(%arg0: i32) -> i64 {
    util.return %arg0 : i32
  }
}"""
    with pytest.raises(VerifyException, match="util.return"):
        _parse(text)
