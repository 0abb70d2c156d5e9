"""The dump's section headers, as IREE 3.13 prints them with and without module scope."""

from __future__ import annotations

from ireelab.iree.dump_reader import read_dump

MODULE = "module {\n  util.func public @f() {\n    util.return\n  }\n}"


def test_header_with_options_is_split_into_name_and_flag() -> None:
    text = (
        "// -----// IR Dump After CanonicalizerPass: canonicalize{max-iterations=10 "
        "region-simplify=normal} //----- //\n" + MODULE + "\n\n"
    )
    (section,) = read_dump(text).sections
    assert (section.when, section.name) == ("After", "CanonicalizerPass")
    assert section.flag == "canonicalize{max-iterations=10 region-simplify=normal}"
    assert section.ir == MODULE
    assert section.scope_op is None and not section.failed


def test_module_scope_names_the_op_the_pass_ran_on() -> None:
    text = (
        "// -----// IR Dump After CSEPass: cse ('util.func' operation: @matmul) //----- //\n"
        + MODULE
        + "\n// -----// IR Dump After SymbolDCEPass: symbol-dce ('builtin.module' operation) //----- //\n"
        + MODULE
    )
    dump = read_dump(text)
    assert dump.module_scope
    first, second = dump.sections
    assert (first.scope_op, first.scope_symbol, first.flag) == ("util.func", "matmul", "cse")
    assert (second.scope_op, second.scope_symbol) == ("builtin.module", None)


def test_nested_parentheses_in_options_do_not_confuse_the_scope() -> None:
    # The fixed-point iterator prints its whole pipeline in its options.
    header = (
        "// -----// IR Dump After FixedPointIteratorPass: iree-util-fixed-point-iterator"
        "{max-iterations=10 pipeline=builtin.module(iree-util-ipo)} //----- //\n"
    )
    (section,) = read_dump(header + MODULE).sections
    assert section.flag.endswith("pipeline=builtin.module(iree-util-ipo)}")
    assert section.scope_op is None


def test_before_and_failed_sections_and_preamble() -> None:
    text = (
        "warning: something\n"
        "// -----// IR Dump Before CSEPass: cse //----- //\n" + MODULE + "\n"
        "// -----// IR Dump After CSEPass Failed: cse //----- //\n" + MODULE
    )
    dump = read_dump(text)
    assert dump.preamble == "warning: something"
    before, failed = dump.sections
    assert before.when == "Before" and not before.failed
    assert failed.when == "After" and failed.failed and failed.name == "CSEPass"


def test_tiny_matmul_dump_has_742_sections(tiny_dump: str) -> None:
    dump = read_dump(tiny_dump)
    assert len(dump.sections) == 742
    assert not dump.module_scope and dump.preamble == ""
