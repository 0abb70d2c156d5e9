"""The `vm` dialect: IREE's virtual machine IR, what the host program becomes before bytecode.

Mirrors IREE's `compiler/src/iree/compiler/Dialect/VM/IR` (VMOps.td, VMTypes): a `vm.module`
holds globals, read-only data, imports of the `hal` module, and `vm.func`s whose values live in
typed registers: i32 (i1 and booleans too), i64, and refs (`!vm.ref<!hal.device>`,
`!vm.buffer`). The text matches what `iree-compile --compile-to=vm` prints (see
`shared/reference/iree-3.13-ir/a0_matmul_tiny.vm.mlir`), which parses here unchanged.

Most ops are declarative; the module, functions, imports, rodata, globals, calls and branches
print IREE's custom syntax, which the format language cannot say (symbol visibility keywords,
`...` variadic markers, tuple operand groups), so they carry hand-written `parse`/`print`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TupleType,
    UnitAttr,
    VectorType,
    i16,
    i32,
    i64,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)

# ---- types -------------------------------------------------------------------------------


@irdl_attr_definition
class RefType(ParametrizedAttribute, TypeAttribute):
    """`!vm.ref<T>`: a reference-counted handle to a runtime object (a `!hal.*` object)."""

    name = "vm.ref"
    object_type: Attribute


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!vm.buffer`: a byte buffer (rodata strings, executable binaries)."""

    name = "vm.buffer"


def is_ref(type_: Attribute) -> bool:
    return isinstance(type_, RefType | BufferType)


# ---- small parse/print helpers -------------------------------------------------------------


def _print_visibility(printer: Printer, visibility: StringAttr | None) -> None:
    if visibility is not None:
        printer.print_string(f" {visibility.data}")


def _parse_visibility(parser: Parser) -> StringAttr | None:
    keyword = parser.parse_optional_keyword_in(("public", "private", "nested"))
    return StringAttr(keyword) if keyword else None


def _print_extra_attrs(printer: Printer, op: Operation, with_keyword: bool = True) -> None:
    if op.attributes:
        printer.print_op_attributes(op.attributes, print_keyword=with_keyword)


def _parse_extra_attrs(parser: Parser, op: Operation, with_keyword: bool = True) -> None:
    attrs = (
        parser.parse_optional_attr_dict_with_keyword()
        if with_keyword
        else DictionaryAttr(parser.parse_optional_attr_dict())
    )
    if attrs is not None:
        op.attributes |= attrs.data


def _print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def _parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )


# ---- structure ---------------------------------------------------------------------------


@irdl_op_definition
class ModuleOp(IRDLOperation):
    """`vm.module public @module { ... }`: one loadable module."""

    name = "vm.module"
    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    version = opt_prop_def(IntegerAttr)
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(
        self, name: str, body: Sequence[Operation] | Region = (), visibility: str = "public"
    ):
        region = body if isinstance(body, Region) else Region(Block(body))
        super().__init__(
            properties={"sym_name": StringAttr(name), "sym_visibility": StringAttr(visibility)},
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        visibility = _parse_visibility(parser)
        name = parser.parse_symbol_name()
        version = None
        if parser.parse_optional_keyword("version"):
            version = IntegerAttr(parser.parse_integer(), 32)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls(name.data, region, visibility.data if visibility else "public")
        op.version = version
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        _print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.version is not None:
            printer.print_string(f" version {self.version.value.data}")
        _print_extra_attrs(printer, self)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`vm.func private @f(%arg0: i32) -> !vm.ref<...> attributes {...} { ... }`."""

    name = "vm.func"
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    body = region_def()
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(
        self,
        name: str,
        function_type: FunctionType,
        region: Region | None = None,
        visibility: str = "private",
    ):
        if region is None:
            region = Region(Block(arg_types=function_type.inputs.data))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": StringAttr(visibility),
            },
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = _parse_visibility(parser)
        name, inputs, outputs, region, extra, _, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "sym_visibility")
        )
        op = cls(
            name,
            FunctionType.from_lists(inputs, outputs),
            region,
            visibility.data if visibility else "private",
        )
        if extra is not None:
            op.attributes |= extra.data
        return op

    def print(self, printer: Printer) -> None:
        _print_visibility(printer, self.sym_visibility)
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            reserved_attr_names=("sym_name", "function_type", "sym_visibility"),
        )


@irdl_op_definition
class ExportOp(IRDLOperation):
    """`vm.export @f` (or `vm.export @f as("name")`): make a function callable from outside."""

    name = "vm.export"
    function_ref = prop_def(SymbolRefAttr)
    export_name = prop_def(StringAttr)

    def __init__(self, function: str, export_name: str | None = None):
        super().__init__(
            properties={
                "function_ref": SymbolRefAttr(function),
                "export_name": StringAttr(export_name or function),
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExportOp:
        function = parser.parse_symbol_name().data
        export_name = None
        if parser.parse_optional_keyword("as"):
            parser.parse_punctuation("(")
            export_name = parser.parse_str_literal()
            parser.parse_punctuation(")")
        op = cls(function, export_name)
        _parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.function_ref.root_reference.data)
        if self.export_name.data != self.function_ref.root_reference.data:
            printer.print_string(" as(")
            printer.print_string_literal(self.export_name.data)
            printer.print_string(")")
        _print_extra_attrs(printer, self)


@irdl_op_definition
class ImportOp(IRDLOperation):
    """`vm.import private @hal.fence.await(%timeout_millis : i32, %fences : !vm.ref<!hal.fence> ...) -> i32`.

    A variadic argument's type is the type of one element (a `tuple<...>` for grouped ones);
    `variadic` holds one 0/1 flag per argument.
    """

    name = "vm.import"
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_names = prop_def(ArrayAttr[StringAttr])
    variadic = prop_def(DenseArrayBase)
    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        name: str,
        args: Sequence[tuple[str, Attribute, bool]],
        results: Sequence[Attribute],
        visibility: str = "private",
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists([t for _, t, _ in args], results),
                "sym_visibility": StringAttr(visibility),
                "arg_names": ArrayAttr([StringAttr(n) for n, _, _ in args]),
                "variadic": DenseArrayBase.from_list(i32, [int(v) for _, _, v in args]),
            }
        )

    @property
    def is_variadic(self) -> tuple[bool, ...]:
        return tuple(bool(v) for v in self.variadic.get_values())

    @classmethod
    def parse(cls, parser: Parser) -> ImportOp:
        visibility = _parse_visibility(parser)
        name = parser.parse_symbol_name().data

        def parse_arg() -> tuple[str, Attribute, bool]:
            arg_name = parser.parse_argument(expect_type=False).name.text[1:]
            parser.parse_punctuation(":")
            arg_type = parser.parse_type()
            return arg_name, arg_type, parser.parse_optional_punctuation("...") is not None

        args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_arg)
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("(") is not None:
                results = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
        op = cls(name, args, results, visibility.data if visibility else "private")
        _parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        _print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        args = zip(
            self.arg_names.data, self.function_type.inputs.data, self.is_variadic, strict=True
        )
        for i, (arg_name, arg_type, variadic) in enumerate(args):
            if i:
                printer.print_string(", ")
            printer.print_string(f"%{arg_name.data} : ")
            printer.print_attribute(arg_type)
            if variadic:
                printer.print_string(" ...")
        printer.print_string(")")
        outputs = self.function_type.outputs.data
        if len(outputs) == 1:
            printer.print_string(" -> ")
            printer.print_attribute(outputs[0])
        elif outputs:
            printer.print_string(" -> (")
            _print_types(printer, outputs)
            printer.print_string(")")
        _print_extra_attrs(printer, self)


@irdl_op_definition
class RodataOp(IRDLOperation):
    """`vm.rodata private @name <alignment = 1> "text"` or `... dense<"0x..."> : vector<Nxi8>`."""

    name = "vm.rodata"
    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    value = prop_def(StringAttr | DenseIntOrFPElementsAttr)
    alignment = opt_prop_def(IntegerAttr)
    mime_type = opt_prop_def(StringAttr)
    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        name: str,
        value: str | bytes,
        alignment: int | None = None,
        mime_type: str | None = None,
    ):
        if isinstance(value, bytes):
            data = DenseIntOrFPElementsAttr(
                VectorType(IntegerType(8), [len(value)]), BytesAttr(value)
            )
        else:
            data = StringAttr(value)
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("private"),
                "value": data,
                "alignment": IntegerAttr(alignment, 64) if alignment is not None else None,
                "mime_type": StringAttr(mime_type) if mime_type is not None else None,
            }
        )

    @property
    def data(self) -> bytes:
        if isinstance(self.value, StringAttr):
            return self.value.data.encode("utf-8")
        return self.value.data.data

    @classmethod
    def parse(cls, parser: Parser) -> RodataOp:
        visibility = _parse_visibility(parser)
        name = parser.parse_symbol_name().data
        alignment = mime_type = None
        if parser.parse_optional_punctuation("<") is not None:

            def parse_entry() -> None:
                nonlocal alignment, mime_type
                key = parser.parse_identifier()
                parser.parse_punctuation("=")
                if key == "alignment":
                    alignment = parser.parse_integer()
                elif key == "mime_type":
                    mime_type = parser.parse_str_literal()
                else:
                    parser.raise_error(f"unknown vm.rodata property '{key}'")

            parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_entry)
            parser.parse_punctuation(">")
        text = parser.parse_optional_str_literal()
        value: str | bytes
        if text is not None:
            value = text
        else:
            attr = parser.parse_attribute()
            if not isinstance(attr, DenseIntOrFPElementsAttr):
                parser.raise_error("vm.rodata expects a string or dense<...> bytes")
            value = bytes(v & 0xFF for v in attr.get_values())
        op = cls(name, value, alignment, mime_type)
        if visibility is not None:
            op.sym_visibility = visibility
        _parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        _print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        entries = []
        if self.alignment is not None:
            entries.append(f"alignment = {self.alignment.value.data}")
        if self.mime_type is not None:
            entries.append(f"mime_type = {StringAttr(self.mime_type.data)}")
        if entries:
            printer.print_string(f" <{', '.join(entries)}>")
        printer.print_string(" ")
        if isinstance(self.value, StringAttr):
            printer.print_string_literal(self.value.data)
        else:
            data = self.data
            printer.print_string(f'dense<"0x{data.hex().upper()}"> : vector<{len(data)}xi8>')
        _print_extra_attrs(printer, self)


@irdl_op_definition
class RodataInlineOp(IRDLOperation):
    """`%0 = vm.rodata.inline "name" : !vm.buffer = "text"`: rodata without a symbol."""

    name = "vm.rodata.inline"
    value = prop_def(StringAttr | DenseIntOrFPElementsAttr)
    sym_name = opt_prop_def(StringAttr)
    result = result_def(BufferType)
    assembly_format = "($sym_name^)? attr-dict `:` type($result) `=` $value"

    def __init__(self, value: str, name: str | None = None):
        super().__init__(
            properties={
                "value": StringAttr(value),
                "sym_name": StringAttr(name) if name else None,
            },
            result_types=[BufferType()],
        )


# ---- globals -----------------------------------------------------------------------------


class _GlobalBase(IRDLOperation):
    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(AnyAttr())
    is_mutable = opt_prop_def(UnitAttr)
    initial_value = opt_prop_def(IntegerAttr)
    traits = traits_def(SymbolOpInterface())

    def __init__(
        self, name: str, type_: Attribute, mutable: bool = True, initial: int | None = None
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("private"),
                "type": type_,
                "is_mutable": UnitAttr() if mutable else None,
                "initial_value": IntegerAttr(initial, type_) if initial is not None else None,
            }
        )

    @classmethod
    def parse(cls, parser: Parser):
        visibility = _parse_visibility(parser)
        mutable = parser.parse_optional_keyword("mutable") is not None
        name = parser.parse_symbol_name().data
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        initial = None
        if parser.parse_optional_punctuation("=") is not None:
            initial = parser.parse_integer()
            if parser.parse_optional_punctuation(":") is not None:
                parser.parse_type()
        op = cls(name, type_, mutable, initial)
        if visibility is not None:
            op.sym_visibility = visibility
        _parse_extra_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        _print_visibility(printer, self.sym_visibility)
        if self.is_mutable is not None:
            printer.print_string(" mutable")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        if self.initial_value is not None:
            printer.print_string(f" = {self.initial_value.value.data} : ")
            printer.print_attribute(self.type)
        _print_extra_attrs(printer, self)


@irdl_op_definition
class GlobalRefOp(_GlobalBase):
    name = "vm.global.ref"


@irdl_op_definition
class GlobalI32Op(_GlobalBase):
    name = "vm.global.i32"


@irdl_op_definition
class GlobalI64Op(_GlobalBase):
    name = "vm.global.i64"


class _GlobalLoadBase(IRDLOperation):
    global_ = prop_def(SymbolRefAttr, prop_name="global")
    value = result_def()
    assembly_format = "$global attr-dict `:` type($value)"

    def __init__(self, global_name: str, type_: Attribute):
        super().__init__(properties={"global": SymbolRefAttr(global_name)}, result_types=[type_])


@irdl_op_definition
class GlobalLoadRefOp(_GlobalLoadBase):
    name = "vm.global.load.ref"


@irdl_op_definition
class GlobalLoadI32Op(_GlobalLoadBase):
    name = "vm.global.load.i32"


@irdl_op_definition
class GlobalLoadI64Op(_GlobalLoadBase):
    name = "vm.global.load.i64"


class _GlobalStoreBase(IRDLOperation):
    value = operand_def()
    global_ = prop_def(SymbolRefAttr, prop_name="global")
    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    def __init__(self, value: SSAValue, global_name: str):
        super().__init__(operands=[value], properties={"global": SymbolRefAttr(global_name)})


@irdl_op_definition
class GlobalStoreRefOp(_GlobalStoreBase):
    name = "vm.global.store.ref"


@irdl_op_definition
class GlobalStoreI32Op(_GlobalStoreBase):
    name = "vm.global.store.i32"


@irdl_op_definition
class GlobalStoreI64Op(_GlobalStoreBase):
    name = "vm.global.store.i64"


# ---- constants ---------------------------------------------------------------------------


class _ConstIntBase(IRDLOperation):
    """`%c = vm.const.i32 16`: IREE prints the bare number."""

    WIDTH: ClassVar[int]
    value = prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, value: int):
        type_ = IntegerType(self.WIDTH)
        super().__init__(properties={"value": IntegerAttr(value, type_)}, result_types=[type_])

    @classmethod
    def parse(cls, parser: Parser):
        op = cls(parser.parse_integer())
        _parse_extra_attrs(parser, op, with_keyword=False)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.value.value.data}")
        _print_extra_attrs(printer, self, with_keyword=False)


@irdl_op_definition
class ConstI32Op(_ConstIntBase):
    name = "vm.const.i32"
    WIDTH: ClassVar[int] = 32


@irdl_op_definition
class ConstI64Op(_ConstIntBase):
    name = "vm.const.i64"
    WIDTH: ClassVar[int] = 64


@irdl_op_definition
class ConstI32ZeroOp(IRDLOperation):
    name = "vm.const.i32.zero"
    result = result_def(i32)
    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i32])


@irdl_op_definition
class ConstI64ZeroOp(IRDLOperation):
    name = "vm.const.i64.zero"
    result = result_def(i64)
    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i64])


@irdl_op_definition
class ConstRefZeroOp(IRDLOperation):
    """`%null = vm.const.ref.zero : !vm.ref<!hal.fence>`: a null ref."""

    name = "vm.const.ref.zero"
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, type_: Attribute):
        super().__init__(result_types=[type_])


@irdl_op_definition
class ConstRefRodataOp(IRDLOperation):
    """`%b = vm.const.ref.rodata @name : !vm.buffer`: a ref to a rodata segment."""

    name = "vm.const.ref.rodata"
    rodata = prop_def(SymbolRefAttr)
    result = result_def(BufferType)
    traits = traits_def(Pure())
    assembly_format = "$rodata attr-dict `:` type($result)"

    def __init__(self, rodata: str):
        super().__init__(properties={"rodata": SymbolRefAttr(rodata)}, result_types=[BufferType()])


# ---- calls -------------------------------------------------------------------------------


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%r = vm.call @hal.buffer_view.buffer(%v) {nosideeffects} : (!vm.ref<...>) -> !vm.ref<...>`."""

    name = "vm.call"
    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(self, callee: str, args: Sequence[SSAValue], result_types: Sequence[Attribute]):
        super().__init__(
            operands=[args],
            result_types=[result_types],
            properties={"callee": SymbolRefAttr(callee)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_symbol_name().data
        operands = _parse_operand_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        args = parser.resolve_operands(operands, ftype.inputs.data, parser.pos)
        op = cls(callee, args, ftype.outputs.data)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.root_reference.data)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(")")
        _print_extra_attrs(printer, self, with_keyword=False)
        printer.print_string(" : (")
        _print_types(printer, [a.type for a in self.args])
        printer.print_string(") -> ")
        results = [r.type for r in self.res]
        if len(results) == 1:
            printer.print_attribute(results[0])
        else:
            printer.print_string("(")
            _print_types(printer, results)
            printer.print_string(")")


def _segment_types(op: Operation) -> list[Attribute]:
    return list(op.segment_types.data)


def _segment_sizes(op: Operation) -> list[int]:
    return [int(v) for v in op.segment_sizes.get_values()]


def _print_variadic_operands(printer: Printer, op: Operation) -> None:
    """`(%a, %b, [%c, %d], [(%e, %f), (%g, %h)])`: one group per variadic segment."""
    operands = list(op.operands)
    pos = 0
    pieces: list[str] = []
    for size, seg_type in zip(_segment_sizes(op), _segment_types(op), strict=True):
        width = len(seg_type.types.data) if isinstance(seg_type, TupleType) else 1
        if size < 0:
            pieces.append(_name(printer, operands[pos]))
            pos += 1
            continue
        items = []
        for _ in range(size):
            names = [_name(printer, v) for v in operands[pos : pos + width]]
            items.append(f"({', '.join(names)})" if width > 1 else names[0])
            pos += width
        pieces.append(f"[{', '.join(items)}]")
    printer.print_string("(" + ", ".join(pieces) + ")")


def _name(printer: Printer, value: SSAValue) -> str:
    from io import StringIO

    saved = printer.stream
    printer.stream = StringIO()
    printer.print_operand(value)
    text = printer.stream.getvalue()
    printer.stream = saved
    return text


def _print_segment_signature(printer: Printer, op: Operation) -> None:
    pieces = []
    for size, seg_type in zip(_segment_sizes(op), _segment_types(op), strict=True):
        pieces.append(str(seg_type) + (" ..." if size >= 0 else ""))
    printer.print_string("(" + ", ".join(pieces) + ")")


def _parse_variadic_operands(
    parser: Parser,
) -> tuple[list[UnresolvedOperand], list[list[list[UnresolvedOperand]] | None]]:
    """Flat operands and, per segment, None (scalar) or the list of element groups."""
    flat: list[UnresolvedOperand] = []
    segments: list[list[list[UnresolvedOperand]] | None] = []

    def parse_group() -> list[UnresolvedOperand]:
        if parser.parse_optional_punctuation("(") is not None:
            group = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(")")
            return group
        return [parser.parse_unresolved_operand()]

    def parse_segment() -> None:
        if parser.parse_optional_punctuation("[") is not None:
            groups: list[list[UnresolvedOperand]] = []
            if parser.parse_optional_punctuation("]") is None:
                groups = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_group)
                parser.parse_punctuation("]")
            segments.append(groups)
            flat.extend(v for g in groups for v in g)
            return
        segments.append(None)
        flat.append(parser.parse_unresolved_operand())

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_segment)
    return flat, segments


def _parse_segment_signature(parser: Parser) -> list[tuple[Attribute, bool]]:
    def parse_one() -> tuple[Attribute, bool]:
        type_ = parser.parse_type()
        return type_, parser.parse_optional_punctuation("...") is not None

    return parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_one)


def _resolve_segments(parser, flat, segments, signature) -> tuple[list[SSAValue], list[int]]:
    if len(segments) != len(signature):
        parser.raise_error("operand groups and signature types differ in number")
    types: list[Attribute] = []
    sizes: list[int] = []
    for groups, (seg_type, variadic) in zip(segments, signature, strict=True):
        if (groups is not None) != variadic:
            parser.raise_error("variadic operand group does not match its `...` type")
        if groups is None:
            types.append(seg_type)
            sizes.append(-1)
            continue
        element_types = seg_type.types.data if isinstance(seg_type, TupleType) else (seg_type,)
        for _ in groups:
            types.extend(element_types)
        sizes.append(len(groups))
    return parser.resolve_operands(flat, types, parser.pos), sizes


def _segment_props(sizes: Sequence[int], types: Sequence[Attribute]) -> dict[str, Attribute]:
    return {
        "segment_sizes": DenseArrayBase.from_list(i16, list(sizes)),
        "segment_types": ArrayAttr(list(types)),
    }


@irdl_op_definition
class CallVariadicOp(IRDLOperation):
    """`vm.call.variadic @hal.buffer_view.assert(%v, %msg, %t, %e, [%c2, %c4]) : (..., i64 ...)`.

    `segment_sizes` has -1 for a plain argument and the element count for a variadic one;
    `segment_types` the type of each argument (of one element for variadic ones).
    """

    name = "vm.call.variadic"
    callee = prop_def(SymbolRefAttr)
    segment_sizes = prop_def(DenseArrayBase)
    segment_types = prop_def(ArrayAttr)
    args = var_operand_def()
    res = var_result_def()

    def __init__(
        self,
        callee: str,
        args: Sequence[SSAValue],
        segment_sizes: Sequence[int],
        segment_types: Sequence[Attribute],
        result_types: Sequence[Attribute],
    ):
        super().__init__(
            operands=[args],
            result_types=[result_types],
            properties={
                "callee": SymbolRefAttr(callee),
                **_segment_props(segment_sizes, segment_types),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallVariadicOp:
        callee = parser.parse_symbol_name().data
        flat, segments = _parse_variadic_operands(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        signature = _parse_segment_signature(parser)
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                results = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
        args, sizes = _resolve_segments(parser, flat, segments, signature)
        op = cls(callee, args, sizes, [t for t, _ in signature], results)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.root_reference.data)
        _print_variadic_operands(printer, self)
        _print_extra_attrs(printer, self, with_keyword=False)
        printer.print_string(" : ")
        _print_segment_signature(printer, self)
        results = [r.type for r in self.res]
        if len(results) == 1:
            printer.print_string(" -> ")
            printer.print_attribute(results[0])
        elif results:
            printer.print_string(" -> (")
            _print_types(printer, results)
            printer.print_string(")")


@irdl_op_definition
class CallVariadicYieldableOp(IRDLOperation):
    """`vm.call.variadic.yieldable @hal.fence.await(%t, %f, %fence) <segment_sizes = ..., segment_types = [...]> : (...) -> ^bb1 (i32)`.

    A call that may yield the fiber (IREE: imports with `vm.yield`); its results arrive as the
    arguments of the successor block, so it is a terminator.
    """

    name = "vm.call.variadic.yieldable"
    callee = prop_def(SymbolRefAttr)
    segment_sizes = prop_def(DenseArrayBase)
    segment_types = prop_def(ArrayAttr)
    args = var_operand_def()
    dest = successor_def()
    traits = traits_def(IsTerminator())

    def __init__(
        self,
        callee: str,
        args: Sequence[SSAValue],
        segment_sizes: Sequence[int],
        segment_types: Sequence[Attribute],
        dest: Block,
    ):
        super().__init__(
            operands=[args],
            successors=[dest],
            properties={
                "callee": SymbolRefAttr(callee),
                **_segment_props(segment_sizes, segment_types),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallVariadicYieldableOp:
        callee = parser.parse_symbol_name().data
        flat = _parse_operand_list(parser)
        parser.parse_punctuation("<")
        values: dict[str, Attribute] = {}

        def parse_entry() -> None:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            values[key] = parser.parse_attribute()

        parser.parse_comma_separated_list(Parser.Delimiter.NONE, parse_entry)
        parser.parse_punctuation(">")
        parser.parse_punctuation(":")
        ftype = _parse_type_list(parser)
        parser.parse_punctuation("->")
        dest = parser.parse_successor()
        _parse_type_list(parser)
        sizes_attr = values.get("segment_sizes")
        sizes = [int(v) for v in sizes_attr.get_values()] if sizes_attr is not None else []
        seg_types = values.get("segment_types", ArrayAttr([]))
        args = parser.resolve_operands(flat, ftype, parser.pos)
        return cls(callee, args, sizes, list(seg_types.data), dest)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.callee.root_reference.data)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_operand)
        printer.print_string(") <segment_sizes = dense<[")
        printer.print_string(", ".join(str(s) for s in _segment_sizes(self)))
        printer.print_string(f"]> : vector<{len(_segment_sizes(self))}xi16>, segment_types = [")
        _print_types(printer, _segment_types(self))
        printer.print_string("]> : (")
        _print_types(printer, [a.type for a in self.args])
        printer.print_string(") -> ")
        printer.print_block_name(self.dest)
        printer.print_string(" (")
        _print_types(printer, [a.type for a in self.dest.args])
        printer.print_string(")")


def _parse_type_list(parser: Parser) -> list[Attribute]:
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return types


# ---- control flow ------------------------------------------------------------------------


@irdl_op_definition
class ReturnOp(IRDLOperation):
    name = "vm.return"
    operands_ = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


def _print_dest(printer: Printer, block: Block, args: Sequence[SSAValue]) -> None:
    printer.print_block_name(block)
    if args:
        printer.print_string("(")
        printer.print_list(args, printer.print_operand)
        printer.print_string(" : ")
        _print_types(printer, [a.type for a in args])
        printer.print_string(")")


def _parse_dest(parser: Parser) -> tuple[Block, list[SSAValue]]:
    block = parser.parse_successor()
    if parser.parse_optional_punctuation("(") is None:
        return block, []
    operands = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return block, parser.resolve_operands(operands, types, parser.pos)


@irdl_op_definition
class BranchOp(IRDLOperation):
    """`vm.br ^bb1(%a, %b : i64, i64)`."""

    name = "vm.br"
    dest_operands = var_operand_def()
    dest = successor_def()
    traits = traits_def(IsTerminator())

    def __init__(self, dest: Block, args: Sequence[SSAValue] = ()):
        super().__init__(operands=[args], successors=[dest])

    @classmethod
    def parse(cls, parser: Parser) -> BranchOp:
        return cls(*_parse_dest(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_dest(printer, self.dest, self.dest_operands)


@irdl_op_definition
class CondBranchOp(IRDLOperation):
    """`vm.cond_br %c, ^bb3, ^bb4(%zero : i32)`: branch on a nonzero i32."""

    name = "vm.cond_br"
    condition = operand_def(i32)
    true_operands = var_operand_def()
    false_operands = var_operand_def()
    true_dest = successor_def()
    false_dest = successor_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator())

    def __init__(
        self,
        condition: SSAValue,
        true_dest: Block,
        true_args: Sequence[SSAValue],
        false_dest: Block,
        false_args: Sequence[SSAValue],
    ):
        super().__init__(
            operands=[condition, true_args, false_args], successors=[true_dest, false_dest]
        )

    @classmethod
    def parse(cls, parser: Parser) -> CondBranchOp:
        condition = parser.resolve_operand(parser.parse_unresolved_operand(), i32)
        parser.parse_punctuation(",")
        true_dest, true_args = _parse_dest(parser)
        parser.parse_punctuation(",")
        false_dest, false_args = _parse_dest(parser)
        return cls(condition, true_dest, true_args, false_dest, false_args)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.condition)
        printer.print_string(", ")
        _print_dest(printer, self.true_dest, self.true_operands)
        printer.print_string(", ")
        _print_dest(printer, self.false_dest, self.false_operands)


@irdl_op_definition
class FailOp(IRDLOperation):
    """`vm.fail %status, "message"`: end the invocation with a status code and message."""

    name = "vm.fail"
    status = operand_def(i32)
    message = prop_def(StringAttr)
    traits = traits_def(IsTerminator())
    assembly_format = "$status `,` $message attr-dict"

    def __init__(self, status: SSAValue, message: str):
        super().__init__(operands=[status], properties={"message": StringAttr(message)})


@irdl_op_definition
class DiscardRefsOp(IRDLOperation):
    """`vm.discard.refs %a, %b : T1, T2`: release refs early (IREE inserts these at last use)."""

    name = "vm.discard.refs"
    refs = var_operand_def()
    assembly_format = "$refs attr-dict `:` type($refs)"

    def __init__(self, refs: Sequence[SSAValue]):
        super().__init__(operands=[refs])


# ---- arithmetic, comparison, selection, casts ------------------------------------------


class _BinaryBase(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


class _CompareBase(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(i32)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[i32])


class _UnaryTestBase(IRDLOperation):
    operand = operand_def()
    result = result_def(i32)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand)"

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[i32])


class _SelectBase(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    condition = operand_def(i32)
    true_value = operand_def(T)
    false_value = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$condition `,` $true_value `,` $false_value attr-dict `:` type($result)"

    def __init__(self, condition: SSAValue, true_value: SSAValue, false_value: SSAValue):
        super().__init__(
            operands=[condition, true_value, false_value], result_types=[true_value.type]
        )


class _CastBase(IRDLOperation):
    operand = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])


def _family(base: type, names: Sequence[str]) -> list[type[IRDLOperation]]:
    """One op class per IREE op name of a family (`vm.add.i32` -> `AddI32Op`)."""
    classes = []
    for op_name in names:
        words = op_name.removeprefix("vm.").replace(".", "_").split("_")
        class_name = "".join(w.capitalize() for w in words) + "Op"
        cls = irdl_op_definition(
            type(class_name, (base,), {"name": op_name, "__module__": __name__})
        )
        globals()[class_name] = cls
        classes.append(cls)
    return classes


_INT_BINARY = [
    f"vm.{op}.{w}{sign}"
    for w in ("i32", "i64")
    for op, sign in (
        ("add", ""), ("sub", ""), ("mul", ""), ("div", ".s"), ("div", ".u"), ("rem", ".s"),
        ("rem", ".u"), ("and", ""), ("or", ""), ("xor", ""), ("shl", ""), ("shr", ".s"),
        ("shr", ".u"), ("min", ".s"), ("min", ".u"), ("max", ".s"), ("max", ".u"),
    )
]  # fmt: skip
_INT_COMPARE = [
    f"vm.cmp.{op}.{w}{sign}"
    for w in ("i32", "i64")
    for op, sign in (
        ("eq", ""), ("ne", ""), ("lt", ".s"), ("lt", ".u"), ("lte", ".s"), ("lte", ".u"),
        ("gt", ".s"), ("gt", ".u"), ("gte", ".s"), ("gte", ".u"),
    )
] + ["vm.cmp.eq.ref", "vm.cmp.ne.ref"]  # fmt: skip
_UNARY_TEST = ["vm.cmp.nz.i32", "vm.cmp.nz.i64", "vm.cmp.nz.ref"]
_SELECT = ["vm.select.i32", "vm.select.i64", "vm.select.ref"]
_CASTS = [
    "vm.ext.i32.i64.s",
    "vm.ext.i32.i64.u",
    "vm.trunc.i64.i32",
    "vm.ext.i8.i32.s",
    "vm.ext.i8.i32.u",
    "vm.ext.i16.i32.s",
    "vm.ext.i16.i32.u",
    "vm.trunc.i32.i8",
    "vm.trunc.i32.i16",
]

ARITHMETIC_OPS = (
    _family(_BinaryBase, _INT_BINARY)
    + _family(_CompareBase, _INT_COMPARE)
    + _family(_UnaryTestBase, _UNARY_TEST)
    + _family(_SelectBase, _SELECT)
    + _family(_CastBase, _CASTS)
)
"""The generated integer op classes (`AddI32Op`, `CmpLtI64SOp`, `SelectRefOp`, ...)."""


def op_class(name: str) -> type[IRDLOperation]:
    """The class of a vm op by its IREE name (`vm.add.i64`)."""
    return _BY_NAME[name]


VM = Dialect(
    "vm",
    [
        ModuleOp,
        FuncOp,
        ExportOp,
        ImportOp,
        RodataOp,
        RodataInlineOp,
        GlobalRefOp,
        GlobalI32Op,
        GlobalI64Op,
        GlobalLoadRefOp,
        GlobalLoadI32Op,
        GlobalLoadI64Op,
        GlobalStoreRefOp,
        GlobalStoreI32Op,
        GlobalStoreI64Op,
        ConstI32Op,
        ConstI64Op,
        ConstI32ZeroOp,
        ConstI64ZeroOp,
        ConstRefZeroOp,
        ConstRefRodataOp,
        CallOp,
        CallVariadicOp,
        CallVariadicYieldableOp,
        ReturnOp,
        BranchOp,
        CondBranchOp,
        FailOp,
        DiscardRefsOp,
        *ARITHMETIC_OPS,
    ],
    [RefType, BufferType],
)

_BY_NAME: dict[str, type[IRDLOperation]] = {op.name: op for op in VM.operations}

__all__ = ["VM", "RefType", "BufferType", "op_class", "is_ref"]
__all__ += [cls.__name__ for cls in VM.operations]
