"""What the op converters of `ConversionPass` share: the value map, the block being filled,
type conversion, constants, rodata strings and import declarations.

Mirrors IREE's `VM/Conversion/TypeConverter.cpp` (index -> i64, i1 -> i32, f32 stays f32,
`!hal.x` -> `!vm.ref<!hal.x>`) and `ImportUtils.cpp` (calls to imports, rodata strings named
`_utf8_<text>_<hash>`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from xdsl.dialects.builtin import Float32Type, IndexType, IntegerType, TupleType, i32, i64
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, SSAValue

from ireelab.compiler.vm.hal_imports import HAL_IMPORTS, import_op, vm_type
from ireelab.diagnostics import CompileError
from ireelab.dialects import util, vm

STAGE = "vm"


def convert_type(type_: Attribute, where: Operation | None = None) -> Attribute:
    if isinstance(type_, IndexType):
        return i64
    if isinstance(type_, IntegerType):
        if type_.width.data <= 32:
            return i32
        if type_.width.data == 64:
            return i64
    if isinstance(type_, Float32Type):
        return type_  # the VM's EXT_F32 type (held in i32 registers)
    if isinstance(type_, vm.RefType | vm.BufferType):
        return type_
    if isinstance(type_, util.BufferType):
        return vm.BufferType()
    if isinstance(type_, ParametrizedAttribute) and type_.name.startswith("hal."):
        return vm.RefType(type_)
    raise CompileError.at(where, f"type {type_} has no VM equivalent", STAGE)


def _rodata_name(text: str) -> str:
    """IREE's naming of string rodata: `_utf8_<sanitised prefix>_<hash>`."""
    prefix = re.sub(r"[^A-Za-z0-9_]", "_", text)[:26]
    digest = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return f"_utf8_{prefix}_{digest:X}"


class ConversionState:
    """One module's conversion: module-level tables plus the current insertion block."""

    def __init__(self) -> None:
        self.values: dict[SSAValue, SSAValue] = {}
        self.block: Block | None = None
        self.imports: dict[str, vm.ImportOp] = {}
        self.rodata: dict[str, vm.RodataOp] = {}
        self.global_kinds: dict[str, str] = {}
        """Global name -> `i32`, `i64` or `ref`."""
        self.functions: dict[str, vm.FuncOp] = {}
        self.binaries: dict[tuple[str, str], tuple[str, str]] = {}
        """(executable, variant) -> (rodata name of its binary, executable format)."""
        self.blocks: dict[Block, Block] = {}
        """Source block -> its converted block, in the function being converted."""
        self.return_target: Block | None = None
        """In `__init`, where a `util.return` of an initializer continues (None: return)."""

    # ---- values ---------------------------------------------------------------------------
    def get(self, value: SSAValue) -> SSAValue:
        try:
            return self.values[value]
        except KeyError:
            raise CompileError.at(
                value.owner if isinstance(value.owner, Operation) else None,
                "value used before it was converted (unsupported control flow?)",
                STAGE,
            ) from None

    def map(self, old: SSAValue, new: SSAValue) -> None:
        if old.name_hint and not new.name_hint:
            new.name_hint = old.name_hint
        self.values[old] = new

    def emit(self, op: Operation) -> Operation:
        assert self.block is not None
        self.block.add_op(op)
        return op

    def split(self, arg_types: Sequence[Attribute] = ()) -> Block:
        """A new block right after the current one (the rest of the source block goes there)."""
        assert self.block is not None and self.block.parent is not None
        block = Block(arg_types=arg_types)
        self.block.parent.insert_block_after(block, self.block)
        return block

    # ---- constants and conversions ----------------------------------------------------------
    def const_i32(self, value: int) -> SSAValue:
        op = vm.ConstI32Op(value) if value else vm.ConstI32ZeroOp()
        return self.emit(op).results[0]

    def const_i64(self, value: int) -> SSAValue:
        op = vm.ConstI64Op(value) if value else vm.ConstI64ZeroOp()
        return self.emit(op).results[0]

    def null(self, type_: Attribute) -> SSAValue:
        return self.emit(vm.ConstRefZeroOp(type_)).results[0]

    def as_i32(self, value: SSAValue) -> SSAValue:
        """A converted value as i32: constants are re-emitted, i64 values truncated."""
        if value.type == i32:
            return value
        owner = value.owner
        if isinstance(owner, vm.ConstI64Op):
            return self.const_i32(owner.value.value.data)
        if isinstance(owner, vm.ConstI64ZeroOp):
            return self.const_i32(0)
        return self.emit(vm.op_class("vm.trunc.i64.i32")(value, i32)).results[0]

    def as_i64(self, value: SSAValue) -> SSAValue:
        if value.type == i64:
            return value
        owner = value.owner
        if isinstance(owner, vm.ConstI32Op):
            return self.const_i64(owner.value.value.data)
        if isinstance(owner, vm.ConstI32ZeroOp):
            return self.const_i64(0)
        return self.emit(vm.op_class("vm.ext.i32.i64.s")(value, i64)).results[0]

    def string(self, text: str) -> SSAValue:
        """A `!vm.buffer` holding `text` (a deduplicated rodata segment)."""
        name = _rodata_name(text)
        if name not in self.rodata:
            self.rodata[name] = vm.RodataOp(name, text, alignment=1)
        result = self.emit(vm.ConstRefRodataOp(name)).results[0]
        result.name_hint = name
        return result

    def constant_rodata(self, op: util.BufferConstantOp) -> SSAValue:
        """A `!vm.buffer` of a `util.buffer.constant`'s bytes (its own rodata segment)."""
        base = op.buffer_name.data if op.buffer_name is not None else "_const"
        base = re.sub(r"[^A-Za-z0-9_]", "_", base)
        name, suffix = base, 0
        while name in self.rodata:
            name, suffix = f"{base}_{suffix}", suffix + 1
        alignment = op.alignment.value.data if op.alignment is not None else None
        value = op.value if isinstance(op.value, util.CompositeAttr) else op.data()
        self.rodata[name] = vm.RodataOp(name, value, alignment=alignment)
        result = self.emit(vm.ConstRefRodataOp(name)).results[0]
        result.name_hint = name
        return result

    # ---- imports ------------------------------------------------------------------------------
    def call(self, name: str, args: Sequence[SSAValue], where: Operation) -> list[SSAValue]:
        """`vm.call @hal.<name>(args)`; declares the import on first use."""
        op = self.declare(name, where)
        results = list(op.function_type.outputs.data)
        call = vm.CallOp(f"hal.{name}", args, results)
        if "nosideeffects" in op.attributes:
            call.attributes["nosideeffects"] = op.attributes["nosideeffects"]
        return list(self.emit(call).results)

    def call_variadic(
        self, name: str, segments: Sequence[SSAValue | list], where: Operation
    ) -> list[SSAValue]:
        """`vm.call.variadic`: each segment is a value, or a list (of tuples of values)."""
        op = self.declare(name, where)
        args, sizes, types = self.segment_operands(op, segments)
        call = vm.CallVariadicOp(
            f"hal.{name}", args, sizes, types, list(op.function_type.outputs.data)
        )
        if "nosideeffects" in op.attributes:
            call.attributes["nosideeffects"] = op.attributes["nosideeffects"]
        return list(self.emit(call).results)

    def segment_operands(self, op: vm.ImportOp, segments) -> tuple[list, list[int], list]:
        args: list[SSAValue] = []
        sizes: list[int] = []
        types = list(op.function_type.inputs.data)
        for segment, variadic in zip(segments, op.is_variadic, strict=True):
            if not variadic:
                args.append(segment)
                sizes.append(-1)
                continue
            sizes.append(len(segment))
            for element in segment:
                args.extend(element if isinstance(element, tuple) else (element,))
        return args, sizes, types

    def declare(self, name: str, where: Operation) -> vm.ImportOp:
        if name not in HAL_IMPORTS:
            raise CompileError.at(where, f"no hal import named 'hal.{name}'", STAGE)
        if name not in self.imports:
            self.imports[name] = import_op(name)
        return self.imports[name]


def tuple_type(*keys: str) -> TupleType:
    return vm_type("(" + ",".join(keys) + ")")
