"""The codegen attributes (`iree_codegen`, `iree_cpu`) parse and print as IREE 3.13 writes them.

Golden texts are what the real `iree-compile --compile-to=executable-configurations` printed
for the reference programs; where IREE is installed, every such attribute it prints for two
programs is read back here too.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from reference_paths import REFERENCE
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from ireelab.compiler.context import make_context
from ireelab.dialects.iree_codegen import TranslationInfoAttr
from ireelab.dialects.iree_cpu import CPUPipeline, LoweringConfigAttr, PipelineAttr

PROGRAMS = REFERENCE / "programs"

IREE_PRINTED = [
    "#iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, "
    "{enable_loop_peeling}>",
    "#iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<ConvTileAndDecomposeExpert>>",
    "#iree_cpu.lowering_config<cache_parallel = [2, 2, 0], distribution = [2, 2, 0], "
    "vector_common_parallel = [2, 4, 0], vector_reduction = [0, 0, 4]>",
    "#iree_cpu.lowering_config<distribution = [0, 3, 54, 64, 0, 0, 0], "
    "vector_common_parallel = [1, 1, 2, 2, 0, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 1, 8]>",
    "#iree_cpu.lowering_config<vector_common_parallel = [1, 1, 2, 2]>",
    "#iree_cpu.cpu_encoding_resolver<>",
]


def _parse(text: str):
    return Parser(make_context(), text).parse_attribute()


def _print(attr) -> str:
    out = io.StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


@pytest.mark.parametrize("text", IREE_PRINTED)
def test_iree_text_round_trips(text: str):
    # IREE's own spelling parses and prints back character for character
    assert _print(_parse(text)) == text


def test_parsed_attributes_carry_their_values():
    # the tile sizes and pipeline are data, not text
    config = _parse(IREE_PRINTED[2])
    assert isinstance(config, LoweringConfigAttr)
    assert config.tile_sizes("distribution") == [2, 2, 0]
    assert config.tile_sizes("vector_reduction") == [0, 0, 4]
    assert config.tile_sizes("vector_inner_parallel") is None
    info = _parse(IREE_PRINTED[0])
    assert isinstance(info, TranslationInfoAttr)
    assert info.pipeline == PipelineAttr(CPUPipeline.DoubleTilingExpert)
    assert set(info.configuration.data) == {"enable_loop_peeling"}


def test_built_attributes_print_like_iree():
    # what codegen constructs prints in IREE's syntax (levels in name order)
    info = TranslationInfoAttr("DoubleTilingExpert", ["enable_loop_peeling"])
    assert _print(info) == IREE_PRINTED[0]
    config = LoweringConfigAttr({"vector_reduction": [0, 0, 4], "distribution": [2, 2, 0]})
    assert _print(config) == (
        "#iree_cpu.lowering_config<distribution = [2, 2, 0], vector_reduction = [0, 0, 4]>"
    )


def test_unknown_pipeline_is_a_parse_error():
    # a pipeline ireelab does not select is rejected, not kept as opaque text
    with pytest.raises(ParseError):
        _parse("#iree_cpu.pipeline<NoSuchExpert>")


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="needs the real IREE")
@pytest.mark.parametrize("program", ["a0_matmul_tiny", "f_conv_bias_relu"])
def test_attributes_iree_prints_parse_here(program: str):
    # every translation_info / lowering_config IREE 3.13 writes for the program reads back
    proc = subprocess.run(
        [
            "iree-compile",
            "--iree-hal-target-backends=llvm-cpu",
            "--compile-to=executable-configurations",
            str(PROGRAMS / f"{program}.mlir"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    infos = re.findall(
        r"#iree_codegen\.translation_info<pipeline = #iree_cpu\.pipeline<\w+>(?:, \{[^}]*\})?>",
        proc.stdout,
    )
    configs = re.findall(r"#iree_cpu\.lowering_config<[^>]*>", proc.stdout)
    assert infos and configs
    for text in infos + configs:
        assert _print(_parse(text)) == text
