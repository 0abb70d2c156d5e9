"""The `util` dialect: IREE's host-program scaffolding (functions, globals, initializers).

Mirrors IREE's `compiler/src/iree/compiler/Dialect/Util/IR/UtilOps.td`. IREE wraps every
public entry point in a `util.func` on `!hal.buffer_view` (WrapEntryPointsPass), keeps device
handles and executables in `util.global`s filled by `util.initializer`s, and the HAL stage's
host code checks statuses with `util.status.check_ok`. Large constants reach the host as
`util.buffer.constant` byte buffers (`!util.buffer`) whose value is a `#util.composite` of the
dense attributes packed into them. Only the ops ireelab's pipeline prints
(and the reference IR of IREE 3.13 uses) are modelled; IREE's tied operands on `util.func` /
`util.call` are not.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I1,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TypedAttribute,
    UnitAttr,
    i1,
    i8,
    i32,
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
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects import builtin_resources
from ireelab.dialects.util_align import AlignOp
from ireelab.dialects.util_hints import OptimizationBarrierOp, UnfoldableConstantOp
from ireelab.schemas import packed_storage

# ---- attributes ---------------------------------------------------------------------------


@irdl_attr_definition
class InlineNeverAttr(ParametrizedAttribute):
    """`#util.inline.never`: an `inlining_policy` that keeps a function out of line."""

    name = "util.inline.never"


@irdl_attr_definition
class InlineAlwaysAttr(ParametrizedAttribute):
    """`#util.inline.always`: an `inlining_policy` asking the inliner to always inline."""

    name = "util.inline.always"


# ---- byte buffers ----------------------------------------------------------------------------


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!util.buffer`: a host byte buffer (the VM's `!vm.buffer`)."""

    name = "util.buffer"


def dense_bytes(value: DenseIntOrFPElementsAttr | DenseResourceAttr) -> bytes:
    """The row-major little-endian bytes of a dense or `dense_resource` attribute (a splat is
    expanded; sub-byte elements packed, `schemas/packed_storage.py`)."""
    dense = builtin_resources.elements(value)
    if dense is None:
        raise VerifyException(f"{value} has no bytes to read")
    value = dense
    data = value.data.data
    count = 1
    for dim in value.get_shape():
        count *= dim
    element_size = value.get_element_type().compile_time_size
    if len(data) == element_size and count > 1:
        data = data * count
    bits = packed_storage.packed_bits(
        value.get_element_type(), packed_storage.has_packed_storage(value.type)
    )
    if bits is not None:  # xDSL keeps a byte per element; buffers hold them packed
        return packed_storage.pack(list(data), bits)
    return data


@irdl_attr_definition
class CompositeAttr(ParametrizedAttribute):
    """`#util.composite<16384xi8, [dense<...> : tensor<64x64xf32>, ...]>`: byte-aligned values
    laid end to end (padding included as `dense<0> : vector<Nxi8>`), `total_length` bytes.

    Printed by hand: IREE writes the length as a vector-like shape and one value per line.
    """

    name = "util.composite"

    total_length: IntAttr
    values: ArrayAttr

    def __init__(self, total_length: int, values: Sequence[Attribute]):
        super().__init__(IntAttr(total_length), ArrayAttr(values))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            dims, element = parser.parse_ranked_shape()
            if len(dims) != 1 or element != i8:
                parser.raise_error("expected the composite's length as `<N>xi8`")
            parser.parse_punctuation(",")
            parser.parse_punctuation("[")
            values: list[Attribute] = []
            while parser.parse_optional_punctuation("]") is None:
                values.append(parser.parse_attribute())
                if parser.parse_optional_punctuation(",") is None:
                    parser.parse_punctuation("]")
                    break
        return [IntAttr(dims[0]), ArrayAttr(values)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.total_length.data}xi8, [")
        for value in self.values.data:
            printer.print_string("\n    ", indent=0)
            printer.print_attribute(value)
            printer.print_string(",")
        printer.print_string("\n]>", indent=0)

    def to_bytes(self) -> bytes:
        """The buffer's contents: every value's bytes in order."""
        parts = []
        for value in self.values.data:
            if builtin_resources.elements(value) is None:
                raise VerifyException(f"cannot serialise {value} into a composite")
            parts.append(dense_bytes(value))
        data = b"".join(parts)
        if len(data) != self.total_length.data:
            raise VerifyException(
                f"composite values hold {len(data)} bytes, not {self.total_length.data}"
            )
        return data


@irdl_op_definition
class BufferConstantOp(IRDLOperation):
    """`%buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<...>`.

    Constant bytes embedded in the module (the VM makes them a `vm.rodata`). Printed by hand:
    IREE writes the alignment in angle brackets between the optional name and the attributes.
    """

    name = "util.buffer.constant"

    value = prop_def(AnyAttr())
    alignment = opt_prop_def(IntegerAttr)
    buffer_name = opt_prop_def(StringAttr, prop_name="name")
    result = result_def(BufferType)

    traits = traits_def(Pure())

    def __init__(self, value: Attribute, alignment: int | None = None, name: str | None = None):
        super().__init__(
            properties={
                "value": value,
                "alignment": IntegerAttr(alignment, IndexType()) if alignment else None,
                "name": StringAttr(name) if name is not None else None,
            },
            result_types=[BufferType()],
        )
        self.result.name_hint = name if name is not None else "buffer_cst"

    def data(self) -> bytes:
        if isinstance(self.value, CompositeAttr):
            return self.value.to_bytes()
        if isinstance(self.value, DenseIntOrFPElementsAttr):
            return dense_bytes(self.value)
        if isinstance(self.value, StringAttr):
            return self.value.data.encode("utf-8")
        raise VerifyException(f"util.buffer.constant cannot hold {self.value}")

    @classmethod
    def parse(cls, parser: Parser) -> BufferConstantOp:
        name = parser.parse_optional_str_literal()
        alignment = None
        if parser.parse_optional_punctuation("<") is not None:
            parser.parse_keyword("alignment")
            parser.parse_punctuation("=")
            alignment = parser.parse_integer()
            parser.parse_punctuation(">")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_type()
        parser.parse_punctuation("=")
        op = cls(parser.parse_attribute(), alignment, name)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.buffer_name is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.buffer_name.data)
        if self.alignment is not None:
            printer.print_string(f" <alignment = {self.alignment.value.data}>")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : !util.buffer = ")
        printer.print_attribute(self.value)


# ---- functions ------------------------------------------------------------------------------


class FuncOpCallableInterface(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.outputs.data


_FUNC_RESERVED = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`util.func public @f(%arg0: T) -> T attributes {...} { ... }`.

    Printed by hand (like `func.func`): the function signature names the entry block's
    arguments, which the declarative format cannot say. Unlike MLIR's `func.func`, IREE writes
    the visibility explicitly, so `public` is printed when it is set.
    """

    name = "util.func"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), FuncOpCallableInterface())

    def __init__(
        self,
        name: str,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        region: Region | None = None,
        visibility: str | StringAttr | None = "public",
        *,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if isinstance(visibility, str):
            visibility = StringAttr(visibility)
        if region is None:
            region = Region(Block(arg_types=function_type.inputs))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": visibility,
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
            },
            regions=[region],
            attributes=attributes,
        )

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks

    @property
    def args(self):
        return self.body.blocks.first.args  # the entry block's (a body may have several)

    def get_return_op(self) -> ReturnOp | None:
        if self.is_declaration:
            return None
        last = self.body.blocks.last
        op = last.last_op if last is not None else None
        return op if isinstance(op, ReturnOp) else None

    def update_function_type(self) -> None:
        """Recompute `function_type` from the entry block and the return op."""
        ret = self.get_return_op()
        outputs = ret.operand_types if ret is not None else self.function_type.outputs.data
        self.function_type = FunctionType.from_lists([a.type for a in self.args], outputs)

    def verify_(self) -> None:
        if self.is_declaration:
            return
        if tuple(self.body.blocks.first.arg_types) != self.function_type.inputs.data:
            raise VerifyException(
                "entry block arguments must have the same types as the function inputs"
            )

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=_FUNC_RESERVED
        )
        op = cls(
            name.data if isinstance(name, StringAttr) else name,
            (inputs, outputs),
            region,
            visibility,
            arg_attrs=arg_attrs,
            res_attrs=res_attrs,
        )
        if extra is not None:
            op.attributes |= extra.data
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(" " + self.sym_visibility.data)
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=_FUNC_RESERVED,
        )


class CallOpSymbolUserOpInterface(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, CallOp)
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if callee is None:
            raise VerifyException(f"'{op.callee}' could not be found in symbol table")
        if not isinstance(callee, FuncOp):
            raise VerifyException(f"'{op.callee}' does not reference a util.func")
        ftype = callee.function_type
        if ftype.inputs.data != tuple(op.arguments.types):
            raise VerifyException(f"operand types do not match the signature of {op.callee}")
        if ftype.outputs.data != tuple(op.result_types):
            raise VerifyException(f"result types do not match the signature of {op.callee}")


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%0 = util.call @f(%a) : (T) -> T`."""

    name = "util.call"

    arguments = var_operand_def()
    callee = prop_def(FlatSymbolRefAttrConstr)
    res = var_result_def()

    traits = traits_def(CallOpSymbolUserOpInterface())

    assembly_format = "$callee `(` $arguments `)` attr-dict `:` functional-type($arguments, $res)"

    def __init__(
        self,
        callee: str | StringAttr | SymbolRefAttr,
        arguments: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
    ):
        super().__init__(
            operands=[arguments],
            result_types=[result_types],
            properties={
                "callee": SymbolRefAttr(callee) if not isinstance(callee, SymbolRefAttr) else callee
            },
        )


@irdl_op_definition
class InitializerOp(IRDLOperation):
    """`util.initializer { ... util.return }`: runs once when the module loads, in order."""

    name = "util.initializer"

    body = region_def()

    traits = traits_def(IsolatedFromAbove())

    assembly_format = "attr-dict-with-keyword $body"

    def __init__(self, body: Region | None = None):
        super().__init__(regions=[body if body is not None else Region(Block())])


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`util.return %0 : T`: ends a `util.func` or `util.initializer`."""

    name = "util.return"

    operands_ = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), HasParent(FuncOp, InitializerOp))

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        parent = self.parent_op()
        expected = parent.function_type.outputs.data if isinstance(parent, FuncOp) else ()
        if tuple(self.operands_.types) != expected:
            raise VerifyException(
                f"util.return types {list(map(str, self.operands_.types))} do not match the "
                f"enclosing results {list(map(str, expected))}"
            )


# ---- globals --------------------------------------------------------------------------------


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """`util.global private [mutable] @name [= #initial_value] : type`.

    Printed by hand: IREE's `custom<TypeOrAttr>` elides the type after a typed initial value
    whose type equals the global's (`= 0 : i32`) and prints `= #attr : type` otherwise.
    """

    name = "util.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(AnyAttr())
    is_mutable = opt_prop_def(UnitAttr)
    initial_value = opt_prop_def(AnyAttr())
    inlining_policy = opt_prop_def(AnyAttr())
    """`#util.inline.never` keeps an outlined constant from being folded back into its users."""

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        name: str,
        type: Attribute,
        initial_value: Attribute | None = None,
        visibility: str | None = "private",
        mutable: bool = False,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr(visibility) if visibility else None,
                "type": type,
                "is_mutable": UnitAttr() if mutable else None,
                "initial_value": initial_value,
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        visibility = parser.parse_optional_visibility_keyword()
        mutable = parser.parse_optional_keyword("mutable") is not None
        name = parser.parse_symbol_name()
        inlining_policy = None
        if parser.parse_optional_punctuation("<"):
            parser.parse_keyword("inlining_policy")
            parser.parse_punctuation("=")
            inlining_policy = parser.parse_attribute()
            parser.parse_punctuation(">")
        attrs = parser.parse_optional_attr_dict()
        initial_value = None
        if parser.parse_optional_punctuation("="):
            initial_value = parser.parse_attribute()
        if parser.parse_optional_punctuation(":"):
            type_ = parser.parse_type()
        elif isinstance(initial_value, TypedAttribute):
            type_ = initial_value.get_type()
        else:
            parser.raise_error("util.global needs a type (`: type`)")
        op = cls(name.data, type_, initial_value, None, mutable)
        op.sym_visibility = visibility
        op.inlining_policy = inlining_policy
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(" " + self.sym_visibility.data)
        if self.is_mutable is not None:
            printer.print_string(" mutable")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.inlining_policy is not None:
            printer.print_string(" <inlining_policy = ")
            printer.print_attribute(self.inlining_policy)
            printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        if self.initial_value is not None:
            printer.print_string(" = ")
            printer.print_attribute(self.initial_value)
            typed = isinstance(self.initial_value, TypedAttribute)
            if typed and self.initial_value.get_type() == self.type:
                return
        printer.print_string(" : ")
        printer.print_attribute(self.type)


class GlobalAccessorInterface(SymbolUserOpInterface):
    """`util.global.load/store` name a `util.global` of the value's type."""

    def verify(self, op: Operation) -> None:
        assert isinstance(op, GlobalLoadOp | GlobalStoreOp)
        target = SymbolTable.lookup_symbol(op, op.global_)
        if not isinstance(target, GlobalOp):
            raise VerifyException(f"'{op.global_}' does not reference a util.global")
        value_type = op.result.type if isinstance(op, GlobalLoadOp) else op.value.type
        if value_type != target.type:
            raise VerifyException(
                f"type {value_type} does not match the global's type {target.type}"
            )


@irdl_op_definition
class GlobalLoadOp(IRDLOperation):
    """`%x = util.global.load [immutable] @name : type`."""

    name = "util.global.load"

    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")
    is_immutable = opt_prop_def(UnitAttr)
    result = result_def()

    traits = traits_def(GlobalAccessorInterface())

    assembly_format = "(`immutable` $is_immutable^)? $global attr-dict `:` type($result)"

    def __init__(self, global_name: str, type: Attribute, immutable: bool = False):
        super().__init__(
            properties={
                "global": SymbolRefAttr(global_name),
                "is_immutable": UnitAttr() if immutable else None,
            },
            result_types=[type],
        )


@irdl_op_definition
class GlobalStoreOp(IRDLOperation):
    """`util.global.store %v, @name : type`."""

    name = "util.global.store"

    value = operand_def()
    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")

    traits = traits_def(GlobalAccessorInterface())

    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    def __init__(self, value: SSAValue | Operation, global_name: str):
        super().__init__(operands=[value], properties={"global": SymbolRefAttr(global_name)})


# ---- values and status ------------------------------------------------------------------------


@irdl_op_definition
class NullOp(IRDLOperation):
    """`%0 = util.null : !hal.device`: a null reference of a reference type."""

    name = "util.null"

    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, type: Attribute):
        super().__init__(result_types=[type])


@irdl_op_definition
class CmpEQOp(IRDLOperation):
    """`%b = util.cmp.eq %a, %b : T`: equality of two values (references included)."""

    name = "util.cmp.eq"

    lhs = operand_def()
    rhs = operand_def()
    result = result_def(I1)

    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[i1])

    @classmethod
    def parse(cls, parser: Parser) -> CmpEQOp:
        # Both operands share the one printed type, which the format language cannot say.
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls(parser.resolve_operand(lhs, type_), parser.resolve_operand(rhs, type_))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class StatusCheckOkOp(IRDLOperation):
    """`util.status.check_ok %status, "message"`: fail the invocation if status is not OK."""

    name = "util.status.check_ok"

    status = operand_def(i32)
    message = opt_prop_def(StringAttr)

    assembly_format = "$status (`,` $message^)? attr-dict"

    def __init__(self, status: SSAValue | Operation, message: str | None = None):
        super().__init__(
            operands=[status],
            properties={"message": StringAttr(message) if message is not None else None},
        )


Util = Dialect(
    "util",
    [
        FuncOp,
        CallOp,
        ReturnOp,
        InitializerOp,
        GlobalOp,
        GlobalLoadOp,
        GlobalStoreOp,
        NullOp,
        CmpEQOp,
        StatusCheckOkOp,
        BufferConstantOp,
        OptimizationBarrierOp,
        UnfoldableConstantOp,
        AlignOp,
    ],
    [InlineNeverAttr, InlineAlwaysAttr, BufferType, CompositeAttr],
)
