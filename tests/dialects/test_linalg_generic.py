"""`linalg.generic` in MLIR's syntax (`ireelab.dialects.linalg_generic`): one result after a bare
`->`, several in parentheses; it reads back what ireelab and IREE print, compiles and runs.

- golden round trips of single-, multi- and zero-result generics, with extra attributes;
- bad result lists are parse errors, and a compile of one is a located `CompileError`;
- the parsed op is xDSL's `linalg.GenericOp` to every pass (a subclass);
- a two-result program (tests/flow/programs/multi_result_elementwise.mlir) compiles and runs
  against numpy, the IR after every pass of its compile parses back, `iree-opt` reads
  ireelab's output of it, and ireelab reads IREE's `--compile-to=input` / `flow` output of it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

import ireelab
from ireelab.compiler.api import compile_text
from ireelab.compiler.context import make_context
from ireelab.compiler.driver import CompileOptions, print_ir
from ireelab.diagnostics import CompileError
from ireelab.dialects.linalg_generic import GenericOp
from ireelab.tools.opt import run as ireelab_opt

PROGRAM = Path(__file__).parent.parent / "flow" / "programs" / "multi_result_elementwise.mlir"
needs_iree = pytest.mark.skipif(shutil.which("iree-compile") is None, reason="needs the real IREE")

_MAP = "affine_map<(d0) -> (d0)>"
_T = "tensor<4xf32>"


def _function(generic: str, results: str, returned: str) -> str:
    return (
        f"func.func @f(%a: {_T}, %b: {_T}) -> {results} {{\n"
        f"  %e = tensor.empty() : {_T}\n"
        f"{generic}\n"
        f"  func.return {returned}\n"
        "}\n"
    )


SINGLE = _function(
    f'  %r = linalg.generic {{indexing_maps = [{_MAP}, {_MAP}], iterator_types = ["parallel"]}}'
    f" ins(%a : {_T}) outs(%e : {_T}) {{\n"
    "  ^bb0(%x: f32, %o: f32):\n"
    "    %n = arith.negf %x : f32\n"
    "    linalg.yield %n : f32\n"
    f"  }} -> {_T}",
    _T,
    f"%r : {_T}",
)

MULTI = _function(
    f"  %r, %s = linalg.generic {{indexing_maps = [{_MAP}, {_MAP}, {_MAP}, {_MAP}], "
    f'iterator_types = ["parallel"], doc = "sum and product"}}'
    f" ins(%a, %b : {_T}, {_T}) outs(%e, %e : {_T}, {_T}) attrs =  {{tag = 7 : i64}} {{\n"
    "  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32):\n"
    "    %p = arith.addf %x, %y : f32\n"
    "    %q = arith.mulf %x, %y : f32\n"
    "    linalg.yield %p, %q : f32, f32\n"
    f"  }} -> ({_T}, {_T})",
    f"({_T}, {_T})",
    f"%r, %s : {_T}, {_T}",
)


def _parse(text: str):
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def _print(module) -> str:
    return print_ir(module) + "\n"


def _body(text: str) -> str:
    """The function inside `builtin.module {...}`, dedented as it was written."""
    lines = text.splitlines()[1:-1]
    return "\n".join(line[2:] for line in lines) + "\n"


@pytest.mark.parametrize("text", [SINGLE, MULTI], ids=["single", "multi"])
def test_round_trip(text: str) -> None:
    # ireelab prints what it parsed unchanged: `-> t` for one result, `-> (t1, t2)` for two,
    # with `doc` in the first dict and other attributes after `attrs =`
    printed = _print(_parse(text))
    assert _body(printed) == text
    assert _print(_parse(printed)) == printed


def test_multi_result_op_is_xdsl_generic() -> None:
    # every pass asking isinstance(op, linalg.GenericOp) sees the parsed op as a generic
    (generic,) = [op for op in _parse(MULTI).walk() if op.name == "linalg.generic"]
    assert type(generic) is GenericOp
    assert isinstance(generic, xlinalg.GenericOp)
    assert [str(t) for t in generic.result_types] == [_T, _T]
    assert generic.doc is not None and generic.doc.data == "sum and product"
    assert "tag" in generic.attributes


def test_unknown_entry_of_first_dict_is_kept() -> None:
    # MLIR keeps any other entry of the leading dictionary as an attribute of the op
    text = SINGLE.replace('iterator_types = ["parallel"]}', 'iterator_types = ["parallel"], k}')
    (generic,) = [op for op in _parse(text).walk() if op.name == "linalg.generic"]
    assert "k" in generic.attributes


def test_iterator_type_attribute_form() -> None:
    # `#linalg.iterator_type<parallel>` (xDSL's generic form) reads like "parallel"
    text = SINGLE.replace('["parallel"]', "[#linalg.iterator_type<parallel>]")
    assert _body(_print(_parse(text))) == SINGLE


def test_empty_parenthesised_result_list() -> None:
    # `-> ()` is MLIR's empty arrow type list: a generic on buffers has no results
    text = (
        "func.func @f(%a: memref<4xf32>, %b: memref<4xf32>) {\n"
        f'  linalg.generic {{indexing_maps = [{_MAP}, {_MAP}], iterator_types = ["parallel"]}}'
        " ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {\n"
        "  ^bb0(%x: f32, %o: f32):\n"
        "    linalg.yield %x : f32\n"
        "  } -> ()\n"
        "  func.return\n"
        "}\n"
    )
    (generic,) = [op for op in _parse(text).walk() if op.name == "linalg.generic"]
    assert len(generic.results) == 0


@pytest.mark.parametrize(
    "broken",
    [f"-> ({_T}, {_T}", f"-> {_T}, {_T}", "-> (f32x)", "->"],
    ids=["unclosed", "bare-list", "bad-type", "no-type"],
)
def test_bad_result_lists_are_parse_errors(broken: str) -> None:
    # MLIR accepts only `-> t` or `-> (t, ...)` after the body; anything else fails to parse
    text = MULTI.replace(f"}} -> ({_T}, {_T})", f"}} {broken}", 1)
    with pytest.raises(ParseError):
        _parse(text)


def test_bad_result_list_is_a_located_compile_error() -> None:
    # through the compiler, the same mistake is a CompileError at the generic's line
    text = MULTI.replace(f"}} -> ({_T}, {_T})", f"}} -> {_T}, {_T}", 1)
    with pytest.raises(CompileError) as err:
        ireelab.compile(text, compile_to="input")
    # (the generic parsed with one result, which cannot bind `%r, %s`)
    assert err.value.location is not None
    assert err.value.location.line == 3


def test_indexing_maps_missing_is_a_parse_error() -> None:
    text = SINGLE.replace(f"indexing_maps = [{_MAP}, {_MAP}], ", "")
    with pytest.raises(ParseError, match="indexing_maps"):
        _parse(text)


# ---- the two-result program through the compiler ----------------------------------------


@pytest.fixture(scope="module")
def compiled():
    return compile_text(PROGRAM.read_text(), str(PROGRAM), CompileOptions())


def test_multi_result_program_runs() -> None:
    # -a + b and -a * b, exact in f32 (one rounding each, as numpy does it)
    module = ireelab.compile(PROGRAM.read_text(), device="local-sync")
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((4, 6)).astype(np.float32) for _ in range(2))
    s, p = module.sum_and_product(a, b)
    np.testing.assert_array_equal(s, -a + b)
    np.testing.assert_array_equal(p, -a * b)


def test_ir_after_every_pass_parses_back(compiled) -> None:
    # the trace of a program with a multi-result generic reads back pass by pass
    texts = [("input", compiled.trace.input_ir)] + [(r.name, r.ir) for r in compiled.trace]
    assert any("-> (tensor<" in text for _, text in texts)
    for name, text in texts:
        assert _print(_parse(text)) == text + ("" if text.endswith("\n") else "\n"), name


def test_ireelab_opt_reads_its_flow_output(tmp_path: Path) -> None:
    # `ireelab-opt` (no passes) reads and re-prints the multi-result Flow IR unchanged
    flow_ir = compile_text(PROGRAM.read_text(), str(PROGRAM), CompileOptions(compile_to="flow"))
    path = tmp_path / "flow.mlir"
    path.write_text(flow_ir.ir())
    assert "-> (tensor<" in path.read_text()
    assert ireelab_opt(str(path), "") == flow_ir.ir() + "\n"


@needs_iree
@pytest.mark.iree
@pytest.mark.parametrize("phase", ["input", "flow"])
def test_iree_opt_reads_ireelab_output(phase: str, tmp_path: Path) -> None:
    result = compile_text(PROGRAM.read_text(), str(PROGRAM), CompileOptions(compile_to=phase))
    path = tmp_path / f"ours.{phase}.mlir"
    path.write_text(result.ir())
    proc = subprocess.run(["iree-opt", str(path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[:2000]
    assert "-> (tensor<" in proc.stdout


@needs_iree
@pytest.mark.iree
@pytest.mark.parametrize("phase", ["input", "flow"])
def test_ireelab_reads_iree_output(phase: str, tmp_path: Path) -> None:
    # IREE's own text for the program, multi-result generic included, parses in ireelab and
    # re-prints to a fixed point
    path = tmp_path / f"iree.{phase}.mlir"
    subprocess.run(
        [
            "iree-compile",
            "--iree-hal-target-backends=llvm-cpu",
            f"--compile-to={phase}",
            str(PROGRAM),
            "-o",
            str(path),
        ],
        check=True,
        timeout=120,
    )
    assert ") -> (tensor<" in path.read_text() or "} -> (tensor<" in path.read_text()
    once = ireelab_opt(str(path), "")
    again = tmp_path / "again.mlir"
    again.write_text(once)
    assert ireelab_opt(str(again), "") == once
