"""The `iree_cpu` dialect: the attributes of IREE's CPU codegen that ireelab's IR carries.

Mirrors IREE's `compiler/src/iree/compiler/Codegen/Dialect/CPU/IR` (`IREECPUAttrs.td`). IREE's
llvm-cpu targets name their data-tiling encoding resolver in the target configuration
(`#iree_cpu.cpu_encoding_resolver<>`), so IREE's dumps from stage B on carry it.
"""

from __future__ import annotations

from xdsl.ir import Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


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


IREECPU = Dialect("iree_cpu", [], [CPUEncodingResolverAttr])
"""IREE's CPU codegen dialect, the attributes ireelab parses and prints."""
