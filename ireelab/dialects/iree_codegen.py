"""The `iree_codegen` dialect: how an executable export is to be lowered.

Mirrors IREE's `compiler/src/iree/compiler/Codegen/Dialect/Codegen/IR` (`IREECodegenAttrs.td`):
`LLVMCPUSelectLoweringStrategyPass` records on each export function
`translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<...>, {flags}>`,
the lowering pipeline the rest of codegen follows, and on the ops it tiles a
`lowering_config` (an `#iree_cpu.lowering_config`, `ireelab.dialects.iree_cpu`). The names of
those two discardable attributes are IREE's too.

The dialect's one op here is IREE's `UKernelGenericOp` (`UKernelOps.td`), which
`CPULowerToUKernelsPass` makes: a destination-style call of a micro-kernel named by string, with
tensor or memref `ins`, the `outs` it writes (and returns, on tensors), and scalar operands
after them:

    %r = iree_codegen.ukernel.generic "ireelab_uk_matmul"
           ins(%lhs, %rhs : tensor<64x512xf32>, tensor<512x256xf32>)
           outs(%acc : tensor<64x256xf32>) (%flags : i32) -> tensor<64x256xf32>

IREE lowers it to a `func.call` of the ukernel's entry point (`LowerUKernelOpsToCallsPass`);
ireelab's numba emitter turns it into a call of the kernel module's helper of that name.
IREE's `fn_def_attrs` and `strided_outer_dims` are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DictionaryAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from ireelab.dialects.iree_cpu import CPUPipeline, PipelineAttr

LOWERING_CONFIG = "lowering_config"
"""The attribute holding an op's tile sizes (`#iree_cpu.lowering_config<...>`)."""
TRANSLATION_INFO = "translation_info"
"""The attribute holding an export function's lowering pipeline."""


@irdl_attr_definition
class TranslationInfoAttr(ParametrizedAttribute):
    """`#iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<...>, {flags}>`."""

    name = "iree_codegen.translation_info"

    pipeline: PipelineAttr
    configuration: DictionaryAttr

    def __init__(self, pipeline: CPUPipeline | str, flags: Sequence[str] = ()):
        super().__init__(PipelineAttr(pipeline), DictionaryAttr({f: UnitAttr() for f in flags}))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, DictionaryAttr]:
        with parser.in_angle_brackets():
            parser.parse_keyword("pipeline")
            parser.parse_punctuation("=")
            pipeline = parser.parse_attribute()
            configuration = DictionaryAttr({})
            if parser.parse_optional_punctuation(","):
                configuration = parser.parse_attribute()
        return pipeline, configuration

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<pipeline = ")
        printer.print_attribute(self.pipeline)
        if self.configuration.data:
            printer.print_string(", ")
            printer.print_attribute(self.configuration)
        printer.print_string(">")


@irdl_op_definition
class UKernelGenericOp(IRDLOperation):
    name = "iree_codegen.ukernel.generic"

    u_kernel_fn_name = prop_def(StringAttr)
    """The micro-kernel's name, e.g. `ireelab_uk_matmul`."""
    inputs = var_operand_def()
    outputs = var_operand_def()
    """Destinations: written by the micro-kernel; their tensor forms are the results."""
    other_operands = var_operand_def()
    """Scalars after the destinations (flags, sizes)."""
    results_ = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$u_kernel_fn_name (`ins` `(` $inputs^ `:` type($inputs) `)`)? "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "(`(` $other_operands^ `:` type($other_operands) `)`)? "
        "attr-dict (`->` type($results_)^)?"
    )

    def __init__(
        self,
        kernel: str,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        other_operands: Sequence[SSAValue] = (),
        result_types: Sequence[Attribute] | None = None,
    ):
        if result_types is None:
            result_types = [o.type for o in outputs]
        super().__init__(
            operands=[inputs, outputs, other_operands],
            result_types=[result_types],
            properties={"u_kernel_fn_name": StringAttr(kernel)},
        )


IREECodegen = Dialect("iree_codegen", [UKernelGenericOp], [TranslationInfoAttr])
"""IREE's codegen dialect: the attribute and the op ireelab's codegen writes."""
