"""`iree_linalg_ext.quantize_affine` / `dequantize_affine`: affine (de)quantisation as one op.

Mirrors IREE 3.13's `QuantizeAffineOp` / `DequantizeAffineOp` of the LinalgExt dialect, which
IREE's ONNX importer makes of `QuantizeLinear` / `DequantizeLinear`:

    dequantize:  out = (in - zero_point) * scale
    quantize:    out = clamp(roundeven(in / scale) + zero_point, quant_min, quant_max)

Operands are `ins(input, scale, zero_point) outs(init)`; `indexing_maps` (one per operand,
the last the init's identity) say how scale and zero point broadcast: `(d0) -> ()` for a
per-tensor scalar, `(d0, d1, d2, d3) -> (d1)` for a per-channel tensor. `quant_min` /
`quant_max` bound the stored integers; unit flags say which integers are unsigned
(`input_unsigned` on dequantize, `storage_unsigned` on quantize, `zp_unsigned` on both), as
the signless integer types cannot. Both ops are elementwise; IREE decomposes them into a
`linalg.generic` at dispatch creation (`DecomposeAggregatedOpPass`,
`compiler/flow/decompose_aggregated_ops.py`), so they never reach codegen.

Syntax as IREE prints it: the properties between `<` `>` in any order, bare integers, the unit
flags by name. xDSL's declarative format has no order-free property list with bare integers
(its `prop-dict` is `<{...}>` with typed integers), hence the custom parse / print.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    AnyTensorTypeConstr,
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ireelab.dialects.iree_linalg_ext_interface import SHAPED, LinalgExtOp
from ireelab.dialects.linalg_helpers import parse_operand_group


def element_type(value: SSAValue) -> Attribute:
    t = value.type
    return t.get_element_type() if isinstance(t, ShapedType) else t


class AffineQuantOp(LinalgExtOp):
    """What quantize and dequantize share: operands, maps, bounds, the custom syntax."""

    input = operand_def(SHAPED)
    scale = operand_def()
    zero_point = operand_def()
    output = operand_def(SHAPED)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    quant_min = prop_def(IntegerAttr[I64])
    quant_max = prop_def(IntegerAttr[I64])
    zp_unsigned = opt_prop_def(UnitAttr)
    results_ = var_result_def(AnyTensorTypeConstr)

    INPUTS: ClassVar[tuple[str, ...]] = ("input", "scale", "zero_point")
    OUTPUTS: ClassVar[tuple[str, ...]] = ("output",)
    FLAGS: ClassVar[tuple[str, ...]]
    """The unit flags, in the order IREE prints them."""

    def __init__(
        self,
        input: SSAValue,
        scale: SSAValue,
        zero_point: SSAValue,
        output: SSAValue,
        maps: list[AffineMap],
        bounds: tuple[int, int],
        flags: set[str] = frozenset(),
    ) -> None:
        properties: dict[str, Attribute] = {
            "indexing_maps": ArrayAttr([AffineMapAttr(m) for m in maps]),
            "quant_min": IntegerAttr(bounds[0], i64),
            "quant_max": IntegerAttr(bounds[1], i64),
        }
        properties.update({flag: UnitAttr() for flag in flags})
        result_types = [output.type] if isinstance(output.type, TensorType) else []
        super().__init__(
            operands=[input, scale, zero_point, output],
            result_types=[result_types],
            properties=properties,
        )

    def maps(self) -> list[AffineMap]:
        return [m.data for m in self.indexing_maps]

    def flag(self, name: str) -> bool:
        return name in self.properties

    def storage(self) -> SSAValue:
        """The integer side: dequantize's input, quantize's init."""
        raise NotImplementedError

    def float_type(self) -> Attribute:
        """The float side's element type: quantize's input, dequantize's init."""
        raise NotImplementedError

    def storage_unsigned(self) -> bool:
        raise NotImplementedError

    # ---- syntax -------------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> AffineQuantOp:
        properties: dict[str, Attribute] = {}
        parser.parse_punctuation("<")

        def entry() -> None:
            name = parser.parse_identifier()
            if name in cls.FLAGS or name == "zp_unsigned":
                properties[name] = UnitAttr()
                return
            parser.parse_punctuation("=")
            if name == "indexing_maps":
                properties[name] = parser.parse_attribute()
            elif name in ("quant_min", "quant_max"):
                properties[name] = IntegerAttr(parser.parse_integer(), i64)
            else:
                parser.raise_error(f"unknown property '{name}' of '{cls.name}'")

        parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
        parser.parse_punctuation(">")
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        result_types = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        attributes = parser.parse_optional_attr_dict()
        op = cls.create(
            operands=[*ins, *outs],
            result_types=result_types,
            properties=properties,
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" <indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_string(f", quant_min = {self.quant_min.value.data}")
        printer.print_string(f", quant_max = {self.quant_max.value.data}")
        for name in (*self.FLAGS, "zp_unsigned"):
            if self.flag(name):
                printer.print_string(f", {name}")
        printer.print_string("> ins(")
        _print_operands(printer, self.inputs)
        printer.print_string(") outs(")
        _print_operands(printer, self.outputs)
        printer.print_string(")")
        if self.results:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.results], printer.print_attribute)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    # ---- verification -------------------------------------------------------------------

    def verify_(self) -> None:
        self._verify_results()
        maps = self.maps()
        if len(maps) != 4:
            raise VerifyException(f"'{self.name}' expects 4 indexing maps, got {len(maps)}")
        rank = len(self.output.type.get_shape())
        if maps[3] != AffineMap.identity(rank) or maps[0] != AffineMap.identity(rank):
            raise VerifyException(f"'{self.name}' input and output must be read elementwise")
        for value, amap in zip(self.operands, maps, strict=True):
            shape = value.type.get_shape() if isinstance(value.type, ShapedType) else ()
            if amap.num_dims != rank or len(amap.results) != len(shape):
                raise VerifyException(f"'{self.name}' an indexing map does not fit its operand")
        if element_type(self.scale) != self.float_type():
            raise VerifyException(f"'{self.name}' scale must have the float element type")
        if not isinstance(element_type(self.zero_point), IntegerType):
            raise VerifyException(f"'{self.name}' zero point must be an integer")
        self._verify_bounds()

    def _verify_bounds(self) -> None:
        storage = element_type(self.storage())
        if not isinstance(storage, IntegerType):
            raise VerifyException(f"'{self.name}' storage must be an integer type")
        low, high = self.quant_min.value.data, self.quant_max.value.data
        width = storage.width.data
        unsigned = self.storage_unsigned()
        lowest, highest = (
            (0, 2**width - 1) if unsigned else (-(2 ** (width - 1)), 2 ** (width - 1) - 1)
        )
        if not lowest <= low <= high <= highest:
            sign = "unsigned" if unsigned else "signed"
            raise VerifyException(
                f"'{self.name}' quantization range [{low}, {high}] is not representable in"
                f" {sign} '{storage}'"
            )


def _print_operands(printer: Printer, values: list[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)


@irdl_op_definition
class DequantizeAffineOp(AffineQuantOp):
    """`(input - zero_point) * scale`, the integers widened to twice the input's width."""

    name = "iree_linalg_ext.dequantize_affine"

    input_unsigned = opt_prop_def(UnitAttr)

    FLAGS: ClassVar[tuple[str, ...]] = ("input_unsigned",)

    def storage(self) -> SSAValue:
        return self.input

    def float_type(self) -> Attribute:
        return element_type(self.output)

    def storage_unsigned(self) -> bool:
        return self.flag("input_unsigned")


@irdl_op_definition
class QuantizeAffineOp(AffineQuantOp):
    """`clamp(roundeven(input / scale) + zero_point, quant_min, quant_max)`, in floats, then
    converted to the storage integer."""

    name = "iree_linalg_ext.quantize_affine"

    storage_unsigned_ = opt_prop_def(UnitAttr, prop_name="storage_unsigned")

    FLAGS: ClassVar[tuple[str, ...]] = ("storage_unsigned",)

    def storage(self) -> SSAValue:
        return self.output

    def float_type(self) -> Attribute:
        return element_type(self.input)

    def storage_unsigned(self) -> bool:
        return self.flag("storage_unsigned")


QUANT_OPS = (QuantizeAffineOp, DequantizeAffineOp)
"""Decomposed into generics at dispatch creation; codegen never sees them."""
