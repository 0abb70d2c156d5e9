"""WrapEntryPointsPass: give every public function IREE's buffer-view ABI.

Mirrors IREE's `iree-abi-wrap-entry-points` (ABI/WrapEntryPoints.cpp) for the synchronous
invocation model: the user's function is renamed `_<name>` and made private; a new public
`util.func @<name>` takes `!hal.buffer_view` for each tensor argument, imports it with
`hal.tensor.import`, calls the original, and exports each tensor result with
`hal.tensor.export`. A `?` size of an argument is read from its buffer view
(`hal.buffer_view.dim`) and carried on the import; a result's on its export. Scalars pass
through unchanged. The wrapper carries `iree.abi.stub` and
the `iree.reflection` declaration the runtime reads to check calls.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
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


def _dynamic_indices(t: Attribute) -> list[int]:
    if not isinstance(t, TensorType):
        return []
    return [i for i, d in enumerate(t.get_shape()) if d == DYNAMIC_INDEX]


def _import(block: Block, view: SSAValue, t: TensorType, name: str) -> SSAValue:
    """`hal.tensor.import` of `view`, its `?` sizes read from the view first (IREE reads each
    with `hal.buffer_view.dim` right before the import)."""
    dims = [hal.BufferViewDimOp(view, i) for i in _dynamic_indices(t)]
    block.add_ops(dims)
    imported = hal.TensorImportOp(view, t, name, target_dims=[d.result for d in dims])
    block.add_op(imported)
    return imported.results[0]


def _export(block: Block, value: SSAValue, name: str) -> SSAValue:
    """`hal.tensor.export` of `value` with its `?` sizes as `tensor.dim`s of it, which fold to
    the callee's size values once the call is inlined."""
    dims = []
    for i in _dynamic_indices(value.type):
        index = arith.ConstantOp(IntegerAttr(i, IndexType()), IndexType())
        dims += [index, tensor.DimOp(value, index)]
    block.add_ops(dims)
    sizes = [d.result for d in dims if isinstance(d, tensor.DimOp)]
    exported = hal.TensorExportOp(value, hal.BufferViewType(), name, source_dims=sizes)
    block.add_op(exported)
    return exported.results[0]


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
            arg = _import(block, arg, t, f"input{i}")
        args.append(arg)
    call = util.CallOp(f"_{name}", args, list(outputs))
    block.add_op(call)
    results = []
    for i, (value, t) in enumerate(zip(call.results, outputs, strict=True)):
        if isinstance(t, TensorType):
            value = _export(block, value, f"output{i}")
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
            wrapper = _wrap(func)
            renamed[func.sym_name.data] = f"_{func.sym_name.data}"
            func.sym_name = StringAttr(f"_{func.sym_name.data}")
            func.sym_visibility = StringAttr("private")
            Rewriter.insert_op(wrapper, InsertPoint.after(func))
        _call_internal_functions(op, renamed)
