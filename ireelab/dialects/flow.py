"""The `flow` dialect: IREE's dispatch regions, executables and dispatches on tensors.

Mirrors `compiler/src/iree/compiler/Dialect/Flow/IR/FlowOps.td` (IREE 3.13) for the ops the Flow
stage prints: `flow.dispatch.region` (FormDispatchRegionsPass), `flow.dispatch.workgroups`
(ConvertDispatchRegionsToWorkgroupsPass), `flow.executable` / `flow.executable.export` /
`flow.dispatch` (OutlineDispatchRegionsPass), `flow.return`, and the `flow.tensor.*` ops kept on
the host (defined in `flow_tensor_ops`). The text is IREE's, so
`iree-compile --compile-to=flow` output parses here and what ireelab prints parses in `iree-opt`.

Most ops have custom parse/print: IREE's formats use custom directives (symbol alias, workgroup
count region, shaped type lists with `{%dims}`, region arguments after `=`) that xDSL's
declarative format cannot express. The helpers for those shared pieces live in `flow_directives`
and are reused by the `stream` dialect, as IREE's stream ops reuse the same custom directives.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.flow_bitcast import TensorBitCastOp
from ireelab.dialects.flow_directives import (
    dynamic_dim_count,
    parse_entry_points,
    parse_optional_workgroup_count_region,
    parse_optional_workload,
    parse_shaped_type,
    parse_symbol_alias,
    parse_visibility,
    print_entry_points,
    print_op_attributes,
    print_shaped_type,
    print_symbol_alias,
    print_visibility,
    print_workgroup_count_region,
    print_workload,
)
from ireelab.dialects.flow_dynamic_ops import (
    TensorDynamicConstantOp,
    TensorTieShapeOp,
    TieShapeSyntax,
)
from ireelab.dialects.flow_tensor_ops import (
    TensorEmptyOp,
    TensorLoadOp,
    TensorReshapeOp,
    TensorSliceOp,
    TensorSplatOp,
    TensorStoreOp,
    TensorUpdateOp,
)


@irdl_op_definition
class ExecutableOp(IRDLOperation):
    """`flow.executable private @name { exports... builtin.module {...} }`"""

    name = "flow.executable"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(self, sym_name: str, body: Region | None = None, visibility: str = "private"):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "sym_visibility": StringAttr(visibility),
            },
            regions=[body if body is not None else Region(Block())],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableOp:
        visibility = parse_visibility(parser)
        name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls(name.data, body, visibility.data if visibility else "private")
        if visibility is None:
            del op.properties["sym_visibility"]
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body)


@irdl_op_definition
class ExecutableExportOp(IRDLOperation):
    """`flow.executable.export public @fn workgroups(...) -> (index, index, index) {...}`"""

    name = "flow.executable.export"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    function_ref = prop_def(SymbolRefAttr)
    workgroup_count = opt_region_def()

    traits = traits_def(SymbolOpInterface(), HasParent(ExecutableOp))

    def __init__(
        self,
        sym_name: str,
        workgroup_count: Region | None = None,
        function_ref: str | None = None,
        visibility: str = "public",
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "function_ref": SymbolRefAttr(function_ref or sym_name),
                "sym_visibility": StringAttr(visibility),
            },
            regions=[workgroup_count if workgroup_count is not None else Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableExportOp:
        visibility = parse_visibility(parser)
        name, function_ref = parse_symbol_alias(parser)
        region = parse_optional_workgroup_count_region(parser, "workgroups")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(name.data, region, function_ref.root_reference.data)
        if visibility is None:
            del op.properties["sym_visibility"]
        else:
            op.properties["sym_visibility"] = visibility
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        print_visibility(printer, self.sym_visibility)
        print_symbol_alias(printer, self.sym_name, self.function_ref)
        print_workgroup_count_region(printer, self.workgroup_count, "workgroups")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)


# ---- dispatch regions ----------------------------------------------------------------------


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`flow.return %a, %b : t0, t1` ends dispatch regions and workgroup count regions."""

    name = "flow.return"

    operands_ = var_operand_def()

    traits = traits_def(IsTerminator(), Pure())

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class DispatchRegionOp(IRDLOperation):
    """`%r = flow.dispatch.region[%w] -> (tensor<...>) { ... flow.return %x } count(...) {...}`

    The body captures values from above; it becomes a `flow.dispatch.workgroups` and then an
    executable once it is outlined.
    """

    name = "flow.dispatch.region"

    result_dims = var_operand_def(IndexType)
    workload = var_operand_def(IndexType)
    result = var_result_def()
    body = region_def()
    workgroup_count = opt_region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        result_types: Sequence[Attribute],
        body: Region,
        workload: Sequence[SSAValue] = (),
        result_dims: Sequence[SSAValue] = (),
        workgroup_count: Region | None = None,
    ):
        super().__init__(
            operands=[list(result_dims), list(workload)],
            result_types=[list(result_types)],
            regions=[body, workgroup_count if workgroup_count is not None else Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> DispatchRegionOp:
        workload = parse_optional_workload(parser)
        types: list[Attribute] = []
        dims: list[SSAValue] = []
        if parser.parse_optional_punctuation("->"):
            for ty, ty_dims in parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_shaped_type(parser)
            ):
                types.append(ty)
                dims.extend(ty_dims)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        count = parse_optional_workgroup_count_region(parser, "count")
        op = cls(types, body, workload, dims, count)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        print_workload(printer, self.workload)
        if self.result:
            printer.print_string(" -> (")
            self._print_result_types(printer)
            printer.print_string(")")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body)
        print_workgroup_count_region(printer, self.workgroup_count, "count")

    def _print_result_types(self, printer: Printer) -> None:
        dims = list(self.result_dims)
        for i, ty in enumerate(self.result.types):
            if i:
                printer.print_string(", ")
            n = dynamic_dim_count(ty)
            print_shaped_type(printer, ty, dims[:n])
            dims = dims[n:]


@irdl_op_definition
class DispatchWorkgroupsOp(IRDLOperation):
    """`flow.dispatch.workgroups[%w](%a, %b) : (t0, t1) -> t2 = (%arg0: !iree_tensor_ext...) {...}`

    The body is isolated from above: each operand and each untied result becomes a block
    argument of `!iree_tensor_ext.dispatch.tensor` type (or stays a scalar), in operand then
    result order. A result tied to an operand (`-> %1`) writes that operand's storage in place:
    it has no argument of its own and the operand's argument is `readwrite`.
    """

    name = "flow.dispatch.workgroups"

    workload = var_operand_def(IndexType)
    arguments = var_operand_def()
    argument_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    result = var_result_def()
    body = region_def()
    workgroup_count = opt_region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsolatedFromAbove())

    def __init__(
        self,
        arguments: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Region,
        workload: Sequence[SSAValue] = (),
        workgroup_count: Region | None = None,
        argument_dims: Sequence[SSAValue] = (),
        result_dims: Sequence[SSAValue] = (),
        tied: Sequence[int] = (),
    ):
        super().__init__(
            operands=[list(workload), list(arguments), list(argument_dims), list(result_dims)],
            result_types=[list(result_types)],
            regions=[body, workgroup_count if workgroup_count is not None else Region()],
            properties=_tied_props(tied),
        )

    def tied(self) -> list[int]:
        """For each result, the index of the argument it is tied to, or UNTIED."""
        return tied_indices(self, len(self.result))

    @classmethod
    def parse(cls, parser: Parser) -> DispatchWorkgroupsOp:
        workload = parse_optional_workload(parser)
        unresolved = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        arg_types, arg_dims = _parse_shaped_type_list(parser)
        parser.parse_punctuation("->")
        result_types, result_dims, tied = parse_tied_results(
            parser, _operand_names(unresolved), arg_types
        )
        arguments = parser.resolve_operands(unresolved, arg_types, parser.pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_punctuation("=")
        block_args = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
        )
        body = parser.parse_region(block_args)
        count = parse_optional_workgroup_count_region(parser, "count")
        op = cls(arguments, result_types, body, workload, count, arg_dims, result_dims, tied)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(") : (")
        _print_shaped_type_list(printer, [a.type for a in self.arguments], self.argument_dims)
        printer.print_string(") -> ")
        print_tied_results(
            printer, list(self.result.types), self.result_dims, self.tied(), self.arguments
        )
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        # IREE puts the region arguments on a continuation line, four spaces deeper.
        printer.print_string(" =\n    (")
        printer.print_list(self.body.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=False)
        print_workgroup_count_region(printer, self.workgroup_count, "count")

    def verify_(self) -> None:
        verify_tied(self, self.arguments)


def _parse_shaped_type_list(parser: Parser) -> tuple[list[Attribute], list[SSAValue]]:
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")"):
        return [], []
    types, dims = _parse_shaped_type_list_body(parser)
    parser.parse_punctuation(")")
    return types, dims


def _parse_shaped_type_list_body(parser: Parser) -> tuple[list[Attribute], list[SSAValue]]:
    types: list[Attribute] = []
    dims: list[SSAValue] = []
    for ty, ty_dims in parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, lambda: parse_shaped_type(parser)
    ):
        types.append(ty)
        dims.extend(ty_dims)
    return types, dims


def _print_shaped_type_list(
    printer: Printer, types: Sequence[Attribute], dims: Sequence[SSAValue]
) -> None:
    remaining = list(dims)
    for i, ty in enumerate(types):
        if i:
            printer.print_string(", ")
        n = dynamic_dim_count(ty)
        print_shaped_type(printer, ty, remaining[:n])
        remaining = remaining[n:]


# ---- tied results (IREE's custom<ShapedTiedResult> lists) -----------------------------------

UNTIED = -1
"""IREE's `TiedOpInterface::kUntiedIndex`: the result has storage of its own."""


def tied_operands_attr(tied: Sequence[int]) -> ArrayAttr[IntegerAttr]:
    return ArrayAttr([IntegerAttr(i, IndexType()) for i in tied])


def tied_indices(op: IRDLOperation, count: int) -> list[int]:
    """The `tied_operands` property as a list (all untied when absent)."""
    attr = op.properties.get("tied_operands")
    if not isinstance(attr, ArrayAttr):
        return [UNTIED] * count
    return [a.value.data for a in attr.data]


def _parse_result_entry(
    parser: Parser, operand_names: Sequence[str], arg_types: Sequence[Attribute]
) -> tuple[Attribute, list[SSAValue], int]:
    """One result of a dispatch: a type (`tensor<4xf32>{%d}`) or a tied operand (`%1`,
    `%1{%d}`, `%1 as tensor<...>{%d}`)."""
    unresolved = parser.parse_optional_unresolved_operand()
    if unresolved is None:
        ty, dims = parse_shaped_type(parser)
        return ty, dims, UNTIED
    name = _operand_name(unresolved)
    if name not in operand_names:
        parser.raise_error(f"tied result %{name} is not an operand of the dispatch")
    index = operand_names.index(name)
    ty = arg_types[index]
    dims: list[SSAValue] = []
    if parser.parse_optional_keyword("as"):
        ty, dims = parse_shaped_type(parser)
    elif parser.parse_optional_punctuation("{"):
        dims = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, lambda: parser.parse_operand(IndexType())
        )
        parser.parse_punctuation("}")
    return ty, dims, index


def parse_tied_results(
    parser: Parser, operand_names: Sequence[str], arg_types: Sequence[Attribute]
) -> tuple[list[Attribute], list[SSAValue], list[int]]:
    """`-> type`, `-> %tied` or `-> (entry, ...)` (also `-> ()`)."""
    types: list[Attribute] = []
    dims: list[SSAValue] = []
    tied: list[int] = []

    def one() -> None:
        ty, ty_dims, index = _parse_result_entry(parser, operand_names, arg_types)
        types.append(ty)
        dims.extend(ty_dims)
        tied.append(index)

    if parser.parse_optional_punctuation("("):
        if parser.parse_optional_punctuation(")") is None:
            parser.parse_comma_separated_list(Parser.Delimiter.NONE, one)
            parser.parse_punctuation(")")
    else:
        one()
    return types, dims, tied


def print_tied_results(
    printer: Printer,
    types: Sequence[Attribute],
    dims: Sequence[SSAValue],
    tied: Sequence[int],
    arguments: Sequence[SSAValue],
) -> None:
    remaining = list(dims)
    parens = len(types) != 1
    if parens:
        printer.print_string("(")
    for i, (ty, index) in enumerate(zip(types, tied, strict=True)):
        if i:
            printer.print_string(", ")
        n = dynamic_dim_count(ty)
        ty_dims, remaining = remaining[:n], remaining[n:]
        if index == UNTIED:
            print_shaped_type(printer, ty, ty_dims)
            continue
        printer.print_operand(arguments[index])
        if arguments[index].type != ty:
            printer.print_string(" as ")
            print_shaped_type(printer, ty, ty_dims)
        elif ty_dims:
            printer.print_string("{")
            printer.print_list(ty_dims, printer.print_operand)
            printer.print_string("}")
    if parens:
        printer.print_string(")")


def _tied_props(tied: Sequence[int]) -> dict[str, Attribute]:
    if not any(i != UNTIED for i in tied):
        return {}
    return {"tied_operands": tied_operands_attr(tied)}


def verify_tied(op: IRDLOperation, arguments: Sequence[SSAValue]) -> None:
    tied = tied_indices(op, len(op.results))
    if len(tied) != len(op.results):
        raise VerifyException(f"{op.name}: tied_operands needs one entry per result")
    for result, index in zip(op.results, tied, strict=True):
        if index == UNTIED:
            continue
        if not 0 <= index < len(arguments):
            raise VerifyException(f"{op.name}: tied operand index {index} is out of range")
        if arguments[index].type != result.type:
            raise VerifyException(f"{op.name}: a tied result must have its operand's type")


def _operand_name(unresolved) -> str:
    name = unresolved.operand_name
    return name if unresolved.index == 0 else f"{name}#{unresolved.index}"


def _operand_names(unresolved: Sequence) -> list[str]:
    return [_operand_name(u) for u in unresolved]


# ---- dispatches on the host ------------------------------------------------------------------


@irdl_op_definition
class DispatchOp(IRDLOperation):
    """`%r = flow.dispatch @exe::@export[%w](%a, %b) : (t0, t1) -> t2`

    Calls an outlined executable's export. A result tied to an argument (`-> %1`) is that
    argument's storage, updated in place by the dispatch.
    """

    name = "flow.dispatch"

    workload = var_operand_def(IndexType)
    arguments = var_operand_def()
    argument_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    result = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        entry_point: SymbolRefAttr,
        arguments: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        workload: Sequence[SSAValue] = (),
        argument_dims: Sequence[SSAValue] = (),
        result_dims: Sequence[SSAValue] = (),
        tied: Sequence[int] = (),
    ):
        super().__init__(
            operands=[list(workload), list(arguments), list(argument_dims), list(result_dims)],
            result_types=[list(result_types)],
            properties={"entry_points": ArrayAttr([entry_point]), **_tied_props(tied)},
        )

    def tied(self) -> list[int]:
        """For each result, the index of the argument it is tied to, or UNTIED."""
        return tied_indices(self, len(self.result))

    @property
    def entry_point(self) -> SymbolRefAttr:
        return self.entry_points.data[0]

    @classmethod
    def parse(cls, parser: Parser) -> DispatchOp:
        entry_points = parse_entry_points(parser)
        workload = parse_optional_workload(parser)
        unresolved = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        arg_types, arg_dims = _parse_shaped_type_list(parser)
        parser.parse_punctuation("->")
        result_types, result_dims, tied = parse_tied_results(
            parser, _operand_names(unresolved), arg_types
        )
        arguments = parser.resolve_operands(unresolved, arg_types, parser.pos)
        op = cls(
            entry_points.data[0], arguments, result_types, workload, arg_dims, result_dims, tied
        )
        op.properties["entry_points"] = entry_points
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(")")
        print_op_attributes(printer, self)
        printer.print_string(" : (")
        _print_shaped_type_list(printer, [a.type for a in self.arguments], self.argument_dims)
        printer.print_string(") -> ")
        print_tied_results(
            printer, list(self.result.types), self.result_dims, self.tied(), self.arguments
        )

    def verify_(self) -> None:
        if len(self.entry_points.data) != 1:
            raise VerifyException("flow.dispatch expects exactly one entry point")
        verify_tied(self, self.arguments)


# ---- host tensor ops -------------------------------------------------------------------------


@irdl_op_definition
class DispatchTieShapeOp(TieShapeSyntax, IRDLOperation):
    """`%t = flow.dispatch.tie_shape %arg : !iree_tensor_ext.dispatch.tensor<...>{%d}`: names
    the `?` sizes of a dynamically shaped binding inside a dispatch body."""

    name = "flow.dispatch.tie_shape"

    operand = operand_def()
    dynamic_dims = var_operand_def(IndexType)
    result = result_def()

    traits = traits_def(Pure())


Flow = Dialect(
    "flow",
    [
        DispatchTieShapeOp,
        ExecutableOp,
        ExecutableExportOp,
        ReturnOp,
        DispatchRegionOp,
        DispatchWorkgroupsOp,
        DispatchOp,
        TensorReshapeOp,
        TensorBitCastOp,
        TensorDynamicConstantOp,
        TensorTieShapeOp,
        TensorEmptyOp,
        TensorSplatOp,
        TensorSliceOp,
        TensorUpdateOp,
        TensorLoadOp,
        TensorStoreOp,
    ],
    [],
)

__all__ = [
    "DispatchOp",
    "DispatchTieShapeOp",
    "DispatchRegionOp",
    "DispatchWorkgroupsOp",
    "ExecutableExportOp",
    "ExecutableOp",
    "Flow",
    "ReturnOp",
    "TensorBitCastOp",
    "TensorDynamicConstantOp",
    "TensorEmptyOp",
    "TensorLoadOp",
    "TensorReshapeOp",
    "TensorSliceOp",
    "TensorSplatOp",
    "TensorStoreOp",
    "TensorTieShapeOp",
    "TensorUpdateOp",
    "UNTIED",
]
