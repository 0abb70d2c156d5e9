"""WrapEntryPointsPass: give every public function IREE's buffer-view ABI.

Mirrors IREE's `iree-abi-wrap-entry-points` (ABI/WrapEntryPoints.cpp) for the synchronous
invocation model: the user's function is renamed `_<name>` and made private; a new public
`util.func @<name>` takes `!hal.buffer_view` for each tensor argument, imports it with
`hal.tensor.import`, calls the original, and exports each tensor result with
`hal.tensor.export`. Scalars pass through unchanged. The wrapper carries `iree.abi.stub` and
the `iree.reflection` declaration the runtime reads to check calls.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ireelab.diagnostics import CompileError
from ireelab.dialects import hal, util


def _abi_type(t: Attribute) -> Attribute:
    return hal.BufferViewType() if isinstance(t, TensorType) else t


def _declaration(name: str, inputs, outputs) -> str:
    args = ", ".join(f"%input{i}: {t}" for i, t in enumerate(inputs))
    results = ", ".join(f"%output{i}: {t}" for i, t in enumerate(outputs))
    return f"sync func @{name}({args}) -> ({results})"


def _check_static(func: util.FuncOp) -> None:
    for t in (*func.function_type.inputs.data, *func.function_type.outputs.data):
        if isinstance(t, TensorType) and any(d < 0 for d in t.get_shape()):
            raise CompileError.at(
                func,
                f"dynamic shape {t} in the signature of '@{func.sym_name.data}' is not supported yet",
                stage="input",
            )


def _wrap(func: util.FuncOp) -> util.FuncOp:
    name = func.sym_name.data
    inputs = func.function_type.inputs.data
    outputs = func.function_type.outputs.data
    wrapper_type = ([_abi_type(t) for t in inputs], [_abi_type(t) for t in outputs])
    attrs = {
        "iree.abi.stub": UnitAttr(),
        "iree.reflection": DictionaryAttr(
            {"iree.abi.declaration": StringAttr(_declaration(name, inputs, outputs))}
        ),
    }
    block = Block(arg_types=wrapper_type[0])
    for i, arg in enumerate(block.args):
        arg.name_hint = f"arg{i}"  # IREE prints the wrapper's arguments as %arg0, %arg1, ...
    args = []
    for i, (arg, t) in enumerate(zip(block.args, inputs, strict=True)):
        if isinstance(t, TensorType):
            imported = hal.TensorImportOp(arg, t, f"input{i}")
            block.add_op(imported)
            arg = imported.results[0]
        args.append(arg)
    call = util.CallOp(f"_{name}", args, list(outputs))
    block.add_op(call)
    results = []
    for i, (value, t) in enumerate(zip(call.results, outputs, strict=True)):
        if isinstance(t, TensorType):
            exported = hal.TensorExportOp(value, hal.BufferViewType(), f"output{i}")
            block.add_op(exported)
            value = exported.results[0]
        results.append(value)
    block.add_op(util.ReturnOp(*results))
    wrapper = util.FuncOp(name, wrapper_type, Region(block), "public", attributes=attrs)
    for op in (wrapper, *wrapper.walk()):
        op.location = func.location
    return wrapper


def _call_internal_functions(module: ModuleOp, renamed: dict[str, str]) -> None:
    """A call from the program to a public function keeps calling the tensor function, not
    its buffer-view wrapper (IREE's WrapEntryPoints retargets internal call sites the same
    way)."""
    for call in [c for c in module.walk() if isinstance(c, util.CallOp)]:
        callee = call.callee.root_reference.data
        if callee in renamed:
            call.callee = SymbolRefAttr(renamed[callee])


def _check_no_recursion(module: ModuleOp) -> None:
    """Refuse call cycles here, at the call: wrapping renames the callee, and a recursive call
    would then reach the buffer-view wrapper and fail later with a misleading type error
    (IREE's pipeline inlines every call, so it cannot compile recursion either)."""
    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, util.FuncOp)}
    calls = {name: [c for c in f.walk() if isinstance(c, util.CallOp)] for name, f in funcs.items()}
    state: dict[str, str] = {}

    def visit(name: str) -> None:
        state[name] = "open"
        for call in calls.get(name, []):
            callee = call.callee.root_reference.data
            if state.get(callee) == "open":
                raise CompileError.at(
                    call, f"recursive call to '@{callee}' is not supported", stage="input"
                )
            if callee in funcs and callee not in state:
                visit(callee)
        state[name] = "done"

    for name in funcs:
        if name not in state:
            visit(name)


@dataclass(frozen=True)
class WrapEntryPointsPass(ModulePass):
    name = "iree-abi-wrap-entry-points"

    invocation_model: str = "sync"
    """IREE's `invocation-model`; only the synchronous model is modelled."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.invocation_model != "sync":
            raise CompileError(f"invocation model '{self.invocation_model}' is not supported")
        publics = [
            f
            for f in op.body.block.ops
            if isinstance(f, util.FuncOp)
            and (f.sym_visibility is None or f.sym_visibility.data == "public")
            and "iree.abi.stub" not in f.attributes
        ]
        if not any(isinstance(f, util.FuncOp) for f in op.body.block.ops):
            raise CompileError("the program defines no function to export", stage="input")
        _check_no_recursion(op)
        renamed: dict[str, str] = {}
        for func in publics:
            _check_static(func)
            wrapper = _wrap(func)
            renamed[func.sym_name.data] = f"_{func.sym_name.data}"
            func.sym_name = StringAttr(f"_{func.sym_name.data}")
            func.sym_visibility = StringAttr("private")
            Rewriter.insert_op(wrapper, InsertPoint.after(func))
        _call_internal_functions(op, renamed)
