"""`ConversionPass` (`iree-vm-conversion`): the HAL-phase host program becomes one `vm.module`.

Mirrors IREE's `VM/Transforms/Conversion.cpp` with the HAL, Util, Arith and CF conversion
patterns, plus the parts of IREE's later VM passes the output needs to run:

- `util.global` -> `vm.global.ref/i32/i64` (mutable; their initializers assign them);
- every `hal.executable` -> a `vm.rodata` holding its `hal.executable.binary` bytes
  (`@<executable>_<variant>`, 16-byte aligned, with the binary's MIME type);
- every `util.func` -> a `vm.func` (public ones also get a `vm.export` carrying the
  `iree.reflection` ABI attributes);
- all `util.initializer`s, in order, -> one exported `@__init` (IREE's
  `OrdinalAllocation`/`GlobalInitialization` passes do the same);
- the `hal.*` functions the program calls -> `vm.import`s with IREE's names and signatures,
  in IREE's declaration order.

Ops are converted one by one by the tables in `convert_host_ops` and `convert_hal_ops`; any op
without a converter is a located `CompileError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    FunctionType,
    IndexType,
    IntegerType,
    ModuleOp,
    UnitAttr,
    i64,
)
from xdsl.ir import Block, Operation, OpResult, Region
from xdsl.passes import ModulePass
from xdsl.traits import Pure

from ireelab.compiler.vm.conversion_state import STAGE, ConversionState, convert_type
from ireelab.compiler.vm.convert_check_ops import CHECK_CONVERTERS
from ireelab.compiler.vm.convert_hal_ops import HAL_CONVERTERS
from ireelab.compiler.vm.convert_host_ops import HOST_CONVERTERS
from ireelab.compiler.vm.hal_imports import import_order
from ireelab.diagnostics import CompileError
from ireelab.dialects import hal, util, vm

CONVERTERS = {**HOST_CONVERTERS, **HAL_CONVERTERS, **CHECK_CONVERTERS}
EXECUTABLE_ALIGNMENT = 16


@dataclass(frozen=True)
class ConversionPass(ModulePass):
    """Convert the host program to the `vm` dialect (one `vm.module @module`)."""

    name = "iree-vm-conversion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_module(op)


def _global(op: util.GlobalOp, state: ConversionState) -> Operation:
    name = op.sym_name.data
    type_ = convert_type(op.type, op)
    initial = None
    if op.initial_value is not None and hasattr(op.initial_value, "value"):
        initial = getattr(op.initial_value.value, "data", None)
    if vm.is_ref(type_):
        state.global_kinds[name] = "ref"
        return vm.GlobalRefOp(name, type_)
    kind = "i64" if type_ == i64 else "i32"
    state.global_kinds[name] = kind
    cls = vm.GlobalI64Op if kind == "i64" else vm.GlobalI32Op
    return cls(name, type_, initial=initial if isinstance(initial, int) else None)


def _executable_rodata(op: hal.ExecutableOp, state: ConversionState) -> list[vm.RodataOp]:
    segments = []
    for inner in op.walk():
        if isinstance(inner, hal.ExecutableVariantOp):
            raise CompileError.at(
                inner,
                f"executable variant @{inner.sym_name.data} was not serialised "
                "(SerializeAllExecutablesPass must run before the VM conversion)",
                STAGE,
            )
        if not isinstance(inner, hal.ExecutableBinaryOp):
            continue
        executable, variant = op.sym_name.data, inner.sym_name.data
        name = f"{executable}_{variant}"
        mime = inner.mime_type.data if inner.mime_type is not None else None
        segments.append(vm.RodataOp(name, inner.bytes, EXECUTABLE_ALIGNMENT, mime))
        state.binaries[(executable, variant)] = (name, inner.format.data)
    return segments


def _convert_op(op: Operation, state: ConversionState) -> None:
    converter = CONVERTERS.get(op.name)
    if converter is None:
        raise CompileError.at(op, f"'{op.name}' cannot be converted to the vm dialect", STAGE)
    converter(op, state)


def _convert_region(source: Region, target: Region, state: ConversionState, entry: Block) -> None:
    """Convert `source`'s blocks into `target`; `entry` receives the first block's ops."""
    blocks = list(source.blocks)
    state.blocks = {blocks[0]: entry}
    for old in blocks[1:]:
        new = Block(arg_types=[convert_type(a.type, old.parent_op()) for a in old.args])
        target.add_block(new)
        state.blocks[old] = new
    for old_arg, new_arg in zip(blocks[0].args, entry.args, strict=True):
        state.map(old_arg, new_arg)
    for old in blocks:
        new = state.blocks[old]
        for old_arg, new_arg in zip(old.args, new.args, strict=True):
            state.map(old_arg, new_arg)
        state.block = new
        for op in old.ops:
            _convert_op(op, state)


EXPORTED_SCALARS = "f32, i8, i16, i32, i64, index"
"""Scalar argument and result types an exported function can have: what the runtime ABI
passes in a VM register (an i1 would otherwise reach the runtime as a buffer view; an
`index` is an i64 register, as IREE's 64-bit index target passes it)."""


def _check_exported_scalars(op: util.FuncOp) -> None:
    ftype = op.function_type
    for what, types in (("argument", ftype.inputs.data), ("result", ftype.outputs.data)):
        for index, t in enumerate(types):
            exported = isinstance(t, Float32Type | IndexType) or (
                isinstance(t, IntegerType) and t.width.data in (8, 16, 32, 64)
            )
            if isinstance(t, AnyFloat | IntegerType | IndexType) and not exported:
                raise CompileError.at(
                    op,
                    f"scalar {what} {index} of type {t} is not supported (exported functions "
                    f"take and return {EXPORTED_SCALARS} scalars)",
                    STAGE,
                )


def _function(op: util.FuncOp, state: ConversionState) -> list[Operation]:
    if op.sym_visibility is None or op.sym_visibility.data == "public":
        _check_exported_scalars(op)
    ftype = op.function_type
    inputs = [convert_type(t, op) for t in ftype.inputs.data]
    outputs = [convert_type(t, op) for t in ftype.outputs.data]
    func = vm.FuncOp(op.sym_name.data, FunctionType.from_lists(inputs, outputs))
    for key in ("iree.reflection", "inlining_policy"):
        if key in op.attributes:
            func.attributes[key] = op.attributes[key]
    state.return_target = None
    _convert_region(op.body, func.body, state, func.body.blocks.first)
    visibility = op.sym_visibility.data if op.sym_visibility is not None else "public"
    if visibility != "public":
        return [func]
    export = vm.ExportOp(op.sym_name.data)
    for key in ("iree.abi.stub", "iree.reflection"):
        if key in op.attributes:
            export.attributes[key] = op.attributes[key]
    return [func, export]


def _init_function(initializers: list[Operation], state: ConversionState) -> list[Operation]:
    """All initializers, in order, as one `@__init`: each one's returns branch to the next."""
    func = vm.FuncOp("__init", FunctionType.from_lists([], []))
    func.attributes["vm.unwind"] = UnitAttr()
    entries = [func.body.blocks.first] + [Block() for _ in initializers[1:]]
    for index, init in enumerate(initializers):
        if index:
            func.body.add_block(entries[index])
        state.return_target = entries[index + 1] if index + 1 < len(entries) else None
        _convert_region(init.regions[0], func.body, state, entries[index])
    if not initializers:
        state.block = entries[0]
        state.emit(vm.ReturnOp())
    state.return_target = None
    return [vm.ExportOp("__init"), func]


def _drop_dead_values(func: vm.FuncOp) -> None:
    """Erase pure ops whose results nothing reads (constants the conversion re-emitted in
    another width, unused query results), as IREE's canonicalizer does after conversion.

    Each block is visited last op first, so a dead op's users are gone when it is looked at;
    an erased op's producers are looked at again right away (one in an earlier block, say),
    as MLIR's worklist does, instead of sweeping the function until nothing changes."""
    pending = [op for block in func.body.blocks for op in reversed(list(block.ops))]
    pending.reverse()  # popped from the end: blocks in order, each from its last op
    while pending:
        op = pending.pop()
        block = op.parent
        if block is None or block.parent is not func.body:  # erased, or nested in an op
            continue
        if not op.results or op.get_trait(Pure) is None:
            continue
        if any(r.uses for r in op.results):
            continue
        producers = [
            v.owner for inner in op.walk() for v in inner.operands if isinstance(v, OpResult)
        ]
        op.detach()
        op.erase()
        pending.extend(reversed(producers))


def convert_module(module: ModuleOp) -> None:
    state = ConversionState()
    globals_: list[Operation] = []
    executables: list[Operation] = []
    functions: list[Operation] = []
    initializers: list[Operation] = []
    for op in list(module.body.ops):
        if isinstance(op, util.GlobalOp):
            globals_.append(_global(op, state))
        elif isinstance(op, hal.ExecutableOp):
            executables.extend(_executable_rodata(op, state))
        elif isinstance(op, util.InitializerOp):
            initializers.append(op)
        elif not isinstance(op, util.FuncOp):
            raise CompileError.at(op, f"'{op.name}' cannot be converted to the vm dialect", STAGE)
    for op in module.body.ops:
        if isinstance(op, util.FuncOp):
            functions.extend(_function(op, state))
    init = _init_function(initializers, state)
    for op in [*functions, *init]:
        if isinstance(op, vm.FuncOp):
            _drop_dead_values(op)
    imports = sorted(state.imports.values(), key=lambda i: import_order(i.sym_name.data))
    body = [*globals_, *executables, *state.rodata.values(), *imports, *functions, *init]
    for op in list(module.body.ops):
        op.detach()
        op.erase(safe_erase=False)
    # IREE names the VM module after the (sanitised) builtin.module, "module" when unnamed.
    name = module.sym_name.data if module.sym_name is not None else "module"
    vm_module = vm.ModuleOp(name, body)
    module.body.block.add_op(vm_module)
    module.attributes["vm.toplevel"] = UnitAttr()
