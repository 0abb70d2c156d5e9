"""The device side of the executable interface: `hal.interface.binding.subspan`,
`hal.interface.constant.load` and the `hal.interface.workgroup.{id,count,size}` queries.

Mirrors IREE's `hal.interface.*` ops: inside an executable variant's module, a dispatch
function reads its bindings and its place in the workgroup grid through these (the reference
`a0_matmul_tiny.executable-sources.mlir`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.flow_directives import parse_shaped_type, print_shaped_type
from ireelab.dialects.hal.attributes import PipelineLayoutAttr
from ireelab.dialects.hal.flags import BindingFlagsAttr, parse_flags, print_flags
from ireelab.dialects.hal.syntax import parse_stripped_or_full


@irdl_op_definition
class InterfaceBindingSubspanOp(IRDLOperation):
    """`%0 = hal.interface.binding.subspan layout(<...>) binding(0) alignment(64) offset(%c0)
    flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>>`.

    Inside device code: binding `i` of the pipeline layout, from byte `offset`, seen as a
    dispatch tensor (or, after bufferization, a memref).
    """

    name = "hal.interface.binding.subspan"

    layout = prop_def(PipelineLayoutAttr)
    binding = prop_def(IntegerAttr)
    byte_offset = opt_operand_def(IndexType)
    dynamic_dims = var_operand_def(IndexType)
    """The `?` sizes of the result (`: memref<?x4xf32>{%d}`)."""
    alignment = opt_prop_def(IntegerAttr)
    descriptor_flags = opt_prop_def(BindingFlagsAttr)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        layout: PipelineLayoutAttr,
        binding: int,
        result_type: Attribute,
        byte_offset: SSAValue | Operation | None = None,
        alignment: int | None = 64,
        flags: str | None = None,
        dynamic_dims: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[[byte_offset] if byte_offset is not None else [], list(dynamic_dims)],
            result_types=[result_type],
            properties={
                "layout": layout,
                "binding": IntegerAttr(binding, IndexType()),
                "alignment": IntegerAttr(alignment, IndexType()) if alignment else None,
                "descriptor_flags": BindingFlagsAttr(flags) if flags else None,
            },
        )

    @property
    def byte_offset_list(self) -> list[SSAValue]:
        return [self.byte_offset] if self.byte_offset is not None else []

    def verify_(self) -> None:
        index = self.binding.value.data
        if not 0 <= index < len(self.layout.bindings.data):
            raise VerifyException(f"binding({index}) is not in the pipeline layout")

    @classmethod
    def parse(cls, parser: Parser) -> InterfaceBindingSubspanOp:
        parser.parse_keyword("layout")
        with parser.in_parens():
            layout = parse_stripped_or_full(parser, PipelineLayoutAttr)
        parser.parse_keyword("binding")
        with parser.in_parens():
            binding = parser.parse_integer()
        alignment = None
        if parser.parse_optional_keyword("alignment"):
            with parser.in_parens():
                alignment = parser.parse_integer()
        offset = None
        if parser.parse_optional_keyword("offset"):
            with parser.in_parens():
                offset = parser.parse_unresolved_operand()
        flags = None
        if parser.parse_optional_keyword("flags"):
            with parser.in_parens():
                flags = parse_flags(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_, dims = parse_shaped_type(parser)
        op = cls(
            cast(PipelineLayoutAttr, layout),
            binding,
            type_,
            parser.resolve_operand(offset, IndexType()) if offset is not None else None,
            alignment,
            flags,
            dims,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" layout(")
        self.layout.print_parameters(printer)
        printer.print_string(f") binding({self.binding.value.data})")
        if self.alignment is not None:
            printer.print_string(f" alignment({self.alignment.value.data})")
        if self.byte_offset is not None:
            printer.print_string(" offset(")
            printer.print_operand(self.byte_offset)
            printer.print_string(")")
        if self.descriptor_flags is not None:
            printer.print_string(" flags(")
            print_flags(printer, self.descriptor_flags.data)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_shaped_type(printer, self.result.type, self.dynamic_dims)


@irdl_op_definition
class InterfaceConstantLoadOp(IRDLOperation):
    """`%0 = hal.interface.constant.load layout(<constants = 2, ...>) ordinal(0) : i32`.

    Inside device code: the 32-bit push constant `ordinal` of the pipeline layout, the value
    the host recorded in `hal.command_buffer.dispatch ... constants([...])`. Custom syntax for
    the stripped `layout(<...>)` form IREE prints (as `hal.interface.binding.subspan`).
    """

    name = "hal.interface.constant.load"

    layout = prop_def(PipelineLayoutAttr)
    ordinal = prop_def(IntegerAttr)
    result = result_def(IntegerType)

    traits = traits_def(Pure())

    def __init__(self, layout: PipelineLayoutAttr, ordinal: int, result_type: Attribute = i32):
        super().__init__(
            result_types=[result_type],
            properties={"layout": layout, "ordinal": IntegerAttr(ordinal, IndexType())},
        )

    def verify_(self) -> None:
        ordinal = self.ordinal.value.data
        if not 0 <= ordinal < self.layout.constants.value.data:
            raise VerifyException(f"ordinal({ordinal}) is not a constant of the pipeline layout")

    @classmethod
    def parse(cls, parser: Parser) -> InterfaceConstantLoadOp:
        parser.parse_keyword("layout")
        with parser.in_parens():
            layout = parse_stripped_or_full(parser, PipelineLayoutAttr)
        parser.parse_keyword("ordinal")
        with parser.in_parens():
            ordinal = parser.parse_integer()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(cast(PipelineLayoutAttr, layout), ordinal, parser.parse_type())
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" layout(")
        self.layout.print_parameters(printer)
        printer.print_string(f") ordinal({self.ordinal.value.data})")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


class _WorkgroupQueryOp(IRDLOperation):
    """`%workgroup_id_x = hal.interface.workgroup.id[0] : index` and its siblings."""

    dimension = prop_def(IntegerAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(self, dimension: int):
        super().__init__(
            result_types=[IndexType()],
            properties={"dimension": IntegerAttr(dimension, IndexType())},
        )
        self.result.name_hint = f"workgroup_{self.name.rsplit('.', 1)[1]}_{'xyz'[dimension]}"

    def verify_(self) -> None:
        if self.dimension.value.data not in (0, 1, 2):
            raise VerifyException("workgroup dimension must be 0, 1 or 2")

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_square_brackets():
            dimension = parser.parse_integer()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(dimension)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f"[{self.dimension.value.data}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : index")


@irdl_op_definition
class InterfaceWorkgroupIDOp(_WorkgroupQueryOp):
    name = "hal.interface.workgroup.id"


@irdl_op_definition
class InterfaceWorkgroupCountOp(_WorkgroupQueryOp):
    name = "hal.interface.workgroup.count"


@irdl_op_definition
class InterfaceWorkgroupSizeOp(_WorkgroupQueryOp):
    name = "hal.interface.workgroup.size"
