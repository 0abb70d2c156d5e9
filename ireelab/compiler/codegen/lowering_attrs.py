"""The attributes codegen strategy selection writes, in IREE's syntax.

IREE's `LLVMCPUSelectLoweringStrategyPass` records its decision on the IR:

- on the export function, `translation_info = #iree_codegen.translation_info<pipeline =
  #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling}>`: which lowering pipeline
  runs (IREE's `IREECodegenAttrs.td`, `IREECPUEnums.td`);
- on the root op (and its fused producers / consumers), `lowering_config =
  #iree_cpu.lowering_config<distribution = [64, 64, 0], vector_common_parallel = [...], ...>`:
  tile sizes per tiling level, one entry per loop of the op (`IREECPUAttrs.td`).

ireelab's passes read `distribution` (workgroup tiles) and keep the other levels for the reader
and for the vectorising lowering to come.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr, UnitAttr, i64
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


class CPUPipeline(StrEnum):
    """IREE's CPU lowering pipelines that ireelab selects (names as IREE prints them)."""

    DoubleTilingExpert = "DoubleTilingExpert"
    """Contractions, reductions, elementwise and transposes: distribute, then tile to vectors."""
    ConvTileAndDecomposeExpert = "ConvTileAndDecomposeExpert"
    """Convolutions: tile, then decompose the window to 1-D convolutions."""
    Default = "Default"
    """Ops without a tiling strategy: run as one workgroup."""


@irdl_attr_definition
class PipelineAttr(ParametrizedAttribute):
    """`#iree_cpu.pipeline<DoubleTilingExpert>`."""

    name = "iree_cpu.pipeline"

    pipeline: StringAttr

    def __init__(self, pipeline: CPUPipeline | str):
        super().__init__(StringAttr(CPUPipeline(pipeline).value))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr]:
        with parser.in_angle_brackets():
            value = parser.parse_str_enum(CPUPipeline)
        return (StringAttr(value.value),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.pipeline.data}>")


@irdl_attr_definition
class LoweringConfigAttr(ParametrizedAttribute):
    """`#iree_cpu.lowering_config<distribution = [2, 2, 0], vector_reduction = [0, 0, 4]>`:
    tile sizes per level, by level name (printed in name order, as IREE does)."""

    name = "iree_cpu.lowering_config"

    levels: DictionaryAttr

    def __init__(self, levels: Mapping[str, Sequence[int]]):
        entries = {
            key: ArrayAttr([IntegerAttr(size, i64) for size in sizes])
            for key, sizes in levels.items()
        }
        super().__init__(DictionaryAttr(entries))

    def tile_sizes(self, level: str) -> list[int] | None:
        sizes = self.levels.data.get(level)
        if sizes is None:
            return None
        return [entry.value.data for entry in sizes.data]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[DictionaryAttr]:
        levels: dict[str, list[int]] = {}

        def parse_level() -> None:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            sizes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
            levels[key] = sizes

        with parser.in_angle_brackets():
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_level)
        return (LoweringConfigAttr(levels).levels,)

    def print_parameters(self, printer: Printer) -> None:
        parts = []
        for key in sorted(self.levels.data):
            sizes = ", ".join(str(s) for s in self.tile_sizes(key) or [])
            parts.append(f"{key} = [{sizes}]")
        printer.print_string("<" + ", ".join(parts) + ">")


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


LOWERING_CONFIG = "lowering_config"
TRANSLATION_INFO = "translation_info"

IREECodegen = Dialect("iree_codegen", [], [TranslationInfoAttr])
"""IREE's codegen dialect, the one attribute ireelab writes."""

IREE_CPU_CODEGEN_ATTRIBUTES = [PipelineAttr, LoweringConfigAttr]
"""Codegen attributes of IREE's `iree_cpu` dialect; the `iree_cpu` dialect object lives in
`ireelab.dialects.hal` (targets carry `#iree_cpu.cpu_encoding_resolver`) and must list these
for codegen output to parse back."""
