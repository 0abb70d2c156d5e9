"""MaterializeInterfacesPass: `stream.executable` -> `hal.executable` with one variant per target.

Mirrors IREE's `iree-hal-materialize-interfaces` (HAL/Transforms/MaterializeInterfaces.cpp).
It runs right before codegen and marks the `executable-sources` phase. For every
`stream.executable` it:

- creates `hal.executable` with one `hal.executable.variant` per executable target of the
  device the module targets (ireelab has one: `@numba_python`, from the `#hal.device.target`
  held by the `util.global` that `stream.affinity.default` names);
- turns each `stream.executable.export` into a `hal.executable.export` with its ordinal, a
  `#hal.pipeline.layout` derived from how the dispatch function uses each `!stream.binding`
  (a binding only read through `readonly` dispatch tensors, and never written by a dispatch
  site, is `ReadOnly`), and the workgroup-count region with the `!hal.device` argument;
- rewrites the dispatch function to take no arguments: each `stream.binding.subspan` becomes
  `hal.interface.binding.subspan layout(...) binding(i) alignment(a) offset(%o) flags(...)`,
  and each scalar operand (an i32 after `PackDispatchOperandsPass`: packed index values and
  binding offsets that differ between dispatch sites) becomes a push constant,
  `hal.interface.constant.load layout(...) ordinal(n) : i32`, counted in the layout's
  `constants = N`;
- points every `stream.cmd.dispatch` at `@executable::@variant::@export`.

Like IREE 3.13 by default, bindings and layouts carry the `Indirect` flag (the runtime may
supply buffers through a binding table); `indirect_bindings=False` leaves it out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable

from ireelab.diagnostics import CompileError
from ireelab.dialects import hal, stream, util
from ireelab.dialects import iree_tensor_ext as ite

STAGE = "codegen"


@dataclass(frozen=True)
class MaterializeInterfacesPass(ModulePass):
    name = "iree-hal-materialize-interfaces"

    indirect_bindings: bool = True
    """Mark bindings and layouts `Indirect`, as IREE 3.13 does by default."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        executables = [o for o in op.body.block.ops if isinstance(o, stream.ExecutableOp)]
        if not executables:
            return
        targets = executable_targets(op)
        dispatches = [o for o in op.walk() if isinstance(o, stream.CmdDispatchOp)]
        written = _written_bindings(dispatches)
        # Each executable's dispatch sites, found once: walking the module (every executable's
        # code included) per executable made a model's N executables cost N x N.
        sites: dict[str, list[stream.CmdDispatchOp]] = {}
        for dispatch in dispatches:
            for name in dict.fromkeys(r.root_reference.data for r in dispatch.entry_points.data):
                sites.setdefault(name, []).append(dispatch)
        for executable in executables:
            name = executable.sym_name.data
            _materialize(executable, targets, written, self.indirect_bindings)
            _retarget_dispatches(sites.get(name, []), name, variant_name(targets[0]))


def executable_targets(module: ModuleOp) -> list[hal.ExecutableTargetAttr]:
    """The executable targets of the module's default device (`stream.affinity.default`)."""
    device = _default_device(module)
    if device is None or not device.executable_targets.data:
        raise CompileError.at(
            module,
            "no #hal.device.target with executable targets: run the device stage first",
            STAGE,
        )
    return list(device.executable_targets.data)


def _default_device(module: ModuleOp) -> hal.DeviceTargetAttr | None:
    affinity = module.attributes.get("stream.affinity.default")
    globals_ = [o for o in module.body.block.ops if isinstance(o, util.GlobalOp)]
    if isinstance(affinity, hal.DeviceAffinityAttr):
        name = affinity.device.root_reference.data
        globals_ = [g for g in globals_ if g.sym_name.data == name] or globals_
    for glob in globals_:
        if isinstance(glob.initial_value, hal.DeviceTargetAttr):
            return glob.initial_value
    return None


def variant_name(target: hal.ExecutableTargetAttr) -> str:
    """IREE names a variant after its target's format: `numba-python` -> `numba_python`."""
    return re.sub(r"[^A-Za-z0-9_]", "_", target.format.data)


def _written_bindings(dispatches: list[stream.CmdDispatchOp]) -> set[tuple[str, str, int]]:
    """(executable, export, binding index) triples that some dispatch site writes."""
    written: set[tuple[str, str, int]] = set()
    for op in dispatches:
        for ref in op.entry_points.data:
            exe = ref.root_reference.data
            export = ref.nested_references.data[-1].data
            for i, (access, *_rest) in enumerate(op.bindings()):
                if access != stream.Access.READ:
                    written.add((exe, export, i))
    return written


def _materialize(
    executable: stream.ExecutableOp,
    targets: list[hal.ExecutableTargetAttr],
    written: set[tuple[str, str, int]],
    indirect: bool,
) -> None:
    exe_name = executable.sym_name.data
    exports = [o for o in executable.body.block.ops if isinstance(o, stream.ExecutableExportOp)]
    inner = next((o for o in executable.body.block.ops if isinstance(o, ModuleOp)), None)
    if inner is None:
        raise CompileError.at(executable, f"executable @{exe_name} has no inner module", STAGE)

    hal_exe = hal.ExecutableOp(exe_name, "private")
    for target in targets:
        variant = hal.ExecutableVariantOp(variant_name(target), target)
        hal_exe.body.block.add_op(variant)
        module_copy = inner.clone()
        for ordinal, export in enumerate(exports):
            fn = SymbolTable.lookup_symbol(module_copy, export.function_ref.root_reference)
            if not isinstance(fn, func.FuncOp):
                raise CompileError.at(
                    export, f"no dispatch function for @{export.sym_name.data}", STAGE
                )
            writes = {i for (e, x, i) in written if e == exe_name and x == export.sym_name.data}
            layout = _layout_for(fn, writes, indirect)
            _rewrite_bindings(fn, layout)
            variant.body.block.add_op(
                hal.ExecutableExportOp(export.sym_name.data, ordinal, layout, _count_region(export))
            )
        variant.body.block.add_op(module_copy)

    Rewriter.replace_op(executable, hal_exe)


def _binding_args(fn: func.FuncOp) -> list:
    return [arg for arg in fn.body.block.args if isinstance(arg.type, stream.BindingType)]


def _constant_args(fn: func.FuncOp) -> list:
    """The scalar operands, in order: push constant `n` is the `n`-th of them."""
    constants = [a for a in fn.body.block.args if not isinstance(a.type, stream.BindingType)]
    for arg in constants:
        if arg.type != IntegerType(32):
            raise CompileError.at(
                fn,
                f"dispatch function @{fn.sym_name.data} takes a {arg.type} operand; push "
                "constants are i32 (run PackDispatchOperandsPass first)",
                STAGE,
            )
    return constants


def _layout_for(fn: func.FuncOp, writes: set[int], indirect: bool) -> hal.PipelineLayoutAttr:
    bindings = []
    for i, arg in enumerate(_binding_args(fn)):
        read_only = i not in writes and all(_is_read_only(use.operation) for use in arg.uses)
        flags = [f for f, on in (("ReadOnly", read_only), ("Indirect", indirect)) if on]
        bindings.append(hal.PipelineBindingAttr("|".join(flags) or "None"))
    return hal.PipelineLayoutAttr(
        bindings, "Indirect" if indirect else "None", len(_constant_args(fn))
    )


def _is_read_only(user: Operation) -> bool:
    if not isinstance(user, stream.BindingSubspanOp):
        return False
    result_type = user.result.type
    return isinstance(result_type, ite.DispatchTensorType) and not result_type.can_write


def _alignment(fn: func.FuncOp, index: int) -> int:
    if fn.arg_attrs is None:
        return 64
    attrs = fn.arg_attrs.data[index]
    value = attrs.data.get("stream.alignment") if isinstance(attrs, DictionaryAttr) else None
    return value.value.data if isinstance(value, IntegerAttr) else 64


def _rewrite_bindings(fn: func.FuncOp, layout: hal.PipelineLayoutAttr) -> None:
    """Bindings and push constants come from the HAL interface instead of function arguments."""
    args = _binding_args(fn)
    constants = _constant_args(fn)
    entry = fn.body.block
    loads = [hal.InterfaceConstantLoadOp(layout, i, arg.type) for i, arg in enumerate(constants)]
    if entry.first_op is None:
        entry.add_ops(loads)
    else:
        entry.insert_ops_before(loads, entry.first_op)
    for arg, load in zip(constants, loads, strict=True):
        arg.replace_all_uses_with(load.result)
    for index, arg in enumerate(args):
        flags = layout.bindings.data[index].flags.data
        for use in list(arg.uses):
            subspan = use.operation
            if not isinstance(subspan, stream.BindingSubspanOp):
                raise CompileError.at(
                    subspan,
                    "a !stream.binding is used by something other than stream.binding.subspan",
                    STAGE,
                )
            new = hal.InterfaceBindingSubspanOp(
                layout,
                index,
                subspan.result.type,
                subspan.byte_offset,
                _alignment(fn, index),
                flags if flags != "None" else None,
                list(subspan.dynamic_dims),
            )
            new.result.name_hint = subspan.result.name_hint
            Rewriter.replace_op(subspan, new)
    for arg in reversed(list(entry.args)):
        entry.erase_arg(arg)
    fn.function_type = FunctionType.from_lists([], fn.function_type.outputs.data)
    fn.arg_attrs = None


def _count_region(export: stream.ExecutableExportOp) -> Region:
    """The export's workgroup count region, taking `(%device, workload...)` as IREE's does."""
    block = Block(arg_types=[hal.DeviceType()])
    block.args[0].name_hint = "arg0"  # IREE prints region arguments as %argN
    region = Region(block)
    if not export.workgroup_count.blocks:
        count = ite.DispatchWorkgroupCountFromSliceOp()
        block.add_ops([count, hal.ReturnOp(*count.results)])
        return region
    source = export.workgroup_count.clone()
    source_block = source.block
    for arg in source_block.args:
        new_arg = block.insert_arg(arg.type, len(block.args))
        new_arg.name_hint = f"arg{new_arg.index}"
        arg.replace_all_uses_with(new_arg)
    for op in list(source_block.ops):
        op.detach()
        if isinstance(op, stream.ReturnOp):
            op = hal.ReturnOp(*op.operands)
        block.add_op(op)
    return region


def _retarget_dispatches(sites: list[stream.CmdDispatchOp], exe_name: str, variant: str) -> None:
    """Point the dispatch sites of executable `exe_name` at its variant's exports."""
    for op in sites:
        refs = []
        for ref in op.entry_points.data:
            if ref.root_reference.data == exe_name and len(ref.nested_references.data) == 1:
                ref = SymbolRefAttr(exe_name, [StringAttr(variant), *ref.nested_references.data])
            refs.append(ref)
        op.entry_points = ArrayAttr(refs)
