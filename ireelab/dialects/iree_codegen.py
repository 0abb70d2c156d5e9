"""The `iree_codegen` dialect: how an executable export is to be lowered.

Mirrors IREE's `compiler/src/iree/compiler/Codegen/Dialect/Codegen/IR` (`IREECodegenAttrs.td`):
`LLVMCPUSelectLoweringStrategyPass` records on each export function
`translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<...>, {flags}>`,
the lowering pipeline the rest of codegen follows, and on the ops it tiles a
`lowering_config` (an `#iree_cpu.lowering_config`, `ireelab.dialects.iree_cpu`). The names of
those two discardable attributes are IREE's too.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DictionaryAttr, UnitAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
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


IREECodegen = Dialect("iree_codegen", [], [TranslationInfoAttr])
"""IREE's codegen dialect, the one attribute ireelab writes."""
