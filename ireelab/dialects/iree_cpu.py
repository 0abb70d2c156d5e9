"""The `iree_cpu` dialect: the attributes of IREE's CPU codegen that ireelab's IR carries.

Mirrors IREE's `compiler/src/iree/compiler/Codegen/Dialect/CPU/IR` (`IREECPUAttrs.td`,
`IREECPUEnums.td`):

- `#iree_cpu.pipeline<DoubleTilingExpert>`: which CPU lowering pipeline codegen runs on an
  export, named inside its `#iree_codegen.translation_info` (`ireelab.dialects.iree_codegen`);
- `#iree_cpu.lowering_config<distribution = [64, 64, 0], vector_common_parallel = [...], ...>`:
  the tile sizes per tiling level that `LLVMCPUSelectLoweringStrategyPass` writes on the root op
  of a dispatch (and its fused producers / consumers), one entry per loop of the op; ireelab's
  passes read `distribution` (workgroup tiles) and keep the other levels for the reader;
- `#iree_cpu.cpu_encoding_resolver<>`: IREE's llvm-cpu targets name their data-tiling encoding
  resolver in the target configuration, so IREE's dumps carry it from stage B on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr, i64
from xdsl.ir import Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


class CPUPipeline(StrEnum):
    """IREE's CPU lowering pipelines that ireelab selects (names as IREE prints them)."""

    DoubleTilingExpert = "DoubleTilingExpert"
    """Contractions, reductions, elementwise and transposes: distribute, then tile to vectors."""
    ConvTileAndDecomposeExpert = "ConvTileAndDecomposeExpert"
    """Convolutions: tile, then decompose the window to 1-D convolutions."""
    CPUDataTiling = "CPUDataTiling"
    """Pack and unpack dispatches of data tiling: distribute over the packed tiles."""
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
class CPUEncodingResolverAttr(ParametrizedAttribute):
    """`#iree_cpu.cpu_encoding_resolver<>`: IREE's llvm-cpu targets name their data-tiling
    encoding resolver in the target configuration, so IREE's dumps carry it. It has no
    meaning in ireelab beyond parsing and printing those dumps unchanged."""

    name = "iree_cpu.cpu_encoding_resolver"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[()]:
        if parser.parse_optional_punctuation("<"):
            parser.parse_punctuation(">")
        return ()

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<>")


IREECPU = Dialect("iree_cpu", [], [PipelineAttr, LoweringConfigAttr, CPUEncodingResolverAttr])
"""IREE's CPU codegen dialect: the attributes codegen writes and IREE's targets carry."""
