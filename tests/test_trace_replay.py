"""The trace keeps every pass's IR without a clone per pass: when nothing is printed during a
compile, a record's IR is made by replaying the passes (`driver.Replay`) the first time it is
read, and it is exactly what `--mlir-print-ir-after-all` prints for the same compile."""

from __future__ import annotations

import io
import re

import pytest
from reference_paths import REFERENCE

from ireelab.compiler.api import compile_text
from ireelab.compiler.driver import CompileOptions, PrintOptions
from ireelab.compiler.trace import LazySnapshot

HEADER = re.compile(r"^// -----// IR Dump After (\w+): .* //----- //$", re.M)


def printed_after_all(source: str) -> list[tuple[str, str]]:
    """(pass name, IR) of every section of an `--mlir-print-ir-after-all` dump."""
    out = io.StringIO()
    compile_text(
        source, "p.mlir", CompileOptions(printing=PrintOptions(after_all=True, stream=out))
    )
    text = out.getvalue()
    heads = list(HEADER.finditer(text))
    ends = [h.start() for h in heads[1:]] + [len(text)]
    return [
        (h.group(1), text[h.end() + 1 : end].rstrip("\n"))
        for h, end in zip(heads, ends, strict=True)
    ]


@pytest.mark.parametrize("program", ["d_mlp3", "j_attention", "l_two_results"])
def test_replayed_trace_is_what_print_ir_after_all_prints(program: str) -> None:
    source = (REFERENCE / f"programs/{program}.mlir").read_text()
    result = compile_text(source, "p.mlir")
    assert all(isinstance(r._ir, LazySnapshot) for r in result.trace)  # nothing cloned yet
    printed = printed_after_all(source)
    assert [r.name for r in result.trace] == [name for name, _ in printed]
    for record, (_, ir) in zip(result.trace, printed, strict=True):
        assert record.ir.rstrip("\n") == ir, record.name
    # `changed` compares with the IR before each pass, replayed as well.
    assert result.trace[0].changed and not all(r.changed for r in result.trace)
    # The replay ran on a copy: the compiled module is still the final one.
    assert result.ir().rstrip("\n") == printed[-1][1]


def test_printing_during_the_compile_keeps_snapshots() -> None:
    source = (REFERENCE / "programs/a0_matmul_tiny.mlir").read_text()
    options = CompileOptions(
        printing=PrintOptions(after=frozenset({"CSEPass"}), stream=io.StringIO())
    )
    result = compile_text(source, "p.mlir", options)
    assert not any(isinstance(r._ir, LazySnapshot) for r in result.trace)


@pytest.mark.parametrize("read_input_first", [True, False])
def test_input_ir_is_printed_when_read(read_input_first: bool) -> None:
    """The input's text is made on demand too: the same as printing the parsed input, whether
    it is read before the replay ran (from the copy) or after (kept by the replay)."""
    from ireelab.compiler.source import parse_source
    from ireelab.compiler.trace import print_ir

    source = (REFERENCE / "programs/d_mlp3.mlir").read_text()
    result = compile_text(source, "p.mlir")
    assert not isinstance(result.trace._input_ir, str)  # not printed by the compile
    if not read_input_first:
        assert result.trace[-1].ir
    expected = print_ir(parse_source(source, "p.mlir"))
    assert result.trace.input_ir == expected
    assert result.trace.ir_before(0) == expected
    assert result.trace[0].changed  # compared with the input text


def test_a_compile_that_keeps_no_ir_makes_the_same_module_and_says_so_when_read() -> None:
    """`keep_ir=False` (the command line, which reads no trace): no copy of the input is
    kept, the module is the same, and reading a pass's IR is a clear error."""
    source = (REFERENCE / "programs/d_mlp3.mlir").read_text()
    kept = compile_text(source, "p.mlir")
    bare = compile_text(source, "p.mlir", CompileOptions(keep_ir=False))
    assert bare.module_bytes() == kept.module_bytes()
    assert [r.name for r in bare.trace] == [r.name for r in kept.trace]
    with pytest.raises(ValueError, match="did not keep each pass's IR"):
        _ = bare.trace[3].ir
    with pytest.raises(ValueError, match="did not keep each pass's IR"):
        _ = bare.trace.input_ir
