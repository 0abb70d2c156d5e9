"""Issues 9.1 and 14.4: every case of the bad-input corpus gets a located one-line diagnostic.

For each `tests/bad_inputs/compile/*.mlir`: `ireelab-compile` (in this process and as a real
subprocess) exits with 1, prints `FILE:LINE:COL: error: [stage] message`, the offending line
and a caret, no traceback and no internal error, and leaves no output file behind (nor
truncates an existing one); `ireelab.compile()` raises `CompileError` with the same headline;
the notebook magic shows the same message at the cell's line with that line highlighted and
binds nothing. The corpus holds valid programs ireelab does not support (several blocks, host
`scf`, ops of other dialects, dynamic shapes) as well as invalid ones.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from bad_input_corpus import Case, load_cases, params
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import ireelab
from ireelab.compiler.input import common
from ireelab.diagnostics import CompileError
from ireelab.tools import compile as compile_tool

CASES = load_cases()
BY_NAME = {case.name: case for case in CASES}


def run_cli(argv: list[str], capsys) -> tuple[int, list[str]]:
    """`ireelab-compile ARGV` in this process (as the console script runs it)."""
    code = compile_tool.main(argv)
    return code, capsys.readouterr().err.splitlines()


def check_diagnostic(case: Case, lines: list[str]) -> None:
    assert lines, "nothing printed"
    assert not any("Traceback" in line for line in lines), "\n".join(lines)
    assert "internal error" not in lines[0], "an ireelab bug, not a diagnostic"
    location = case.location
    expected = f"{case.path}:{case.expect}" if location else case.expect
    assert lines[0].startswith(expected), f"\n got: {lines[0]}\nwant: {expected}..."
    if location is None:
        assert len(lines) == 1
        return
    line, col = location
    source = case.source_line(line)
    if source.strip():
        assert lines[1:3] == [source, " " * (col - 1) + "^"]


def test_corpus_covers_the_issue():
    kinds = {name.split("_", 1)[0] for name in BY_NAME}
    assert {"parse", "verify", "unknown", "unsupported"} <= kinds
    assert len(CASES) >= 30
    assert all(case.intent for case in CASES)


def test_corpus_covers_valid_programs_ireelab_does_not_support():
    """Issue 14.4's kinds: blocks and control flow, other dialects, foreign attributes,
    types and dynamic shapes (issue 17: refused, never miscompiled)."""
    names = set(BY_NAME)
    for prefix, at_least in [
        ("unsupported_blocks_", 4),
        ("unsupported_host_scf_", 1),
        ("unknown_dialect_op", 4),
        ("unsupported_op_", 4),
        ("unsupported_dynamic_", 7),
    ]:
        assert sum(n.startswith(prefix) for n in names) >= at_least, prefix
    assert {"unknown_attribute_of_known_dialect", "unsupported_vector_type"} <= names


@pytest.mark.parametrize("case", params(CASES))
def test_command_line_refuses_with_a_located_error(case: Case, tmp_path, capsys):
    output = tmp_path / "out.ilvm"
    code, lines = run_cli([str(case.path), "-o", str(output)], capsys)
    check_diagnostic(case, lines)
    assert code == 1
    assert list(tmp_path.iterdir()) == [], "an output or temporary file was left behind"


@pytest.mark.parametrize(
    "name",
    ["parse_missing_closing_brace", "verify_matmul_shape_mismatch", "unsupported_memref_argument"],
)
def test_an_existing_output_file_is_not_truncated(name: str, tmp_path, capsys):
    output = tmp_path / "out.ilvm"
    output.write_bytes(b"previous module")
    code, lines = run_cli([str(BY_NAME[name].path), "-o", str(output), "--compile-to=end"], capsys)
    assert code == 1 and lines[0].startswith(str(BY_NAME[name].path))
    assert output.read_bytes() == b"previous module"
    assert [p.name for p in tmp_path.iterdir()] == ["out.ilvm"]


@pytest.mark.parametrize("case", params(CASES))
def test_python_api_raises_compile_error(case: Case):
    source = case.path.read_bytes().decode("utf-8", "replace")
    with pytest.raises(CompileError) as caught:
        ireelab.compile(source, filename=str(case.path))
    if case.is_text():
        check_diagnostic(case, str(caught.value).splitlines())


def _run_real_command(case: Case, directory) -> tuple[Case, subprocess.CompletedProcess, list]:
    output = directory / f"{case.name}.ilvm"
    proc = subprocess.run(
        [sys.executable, "-m", "ireelab.tools.compile", str(case.path), "-o", str(output)],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
    )
    return case, proc, [p for p in directory.iterdir() if p.name.startswith(case.name)]


def real_command_cases() -> list[Case]:
    """The cases the subprocess test runs: one per kind of refusal (the name's first word,
    the stage that refuses), since each process costs a second of imports and every case
    already runs through the same `main` in this process (`test_command_line_refuses_...`).
    `IREELAB_FULL_CORPUS=1` runs all of them:

        IREELAB_FULL_CORPUS=1 python -m pytest -q tests/robustness/test_diagnostics.py
    """
    cases = [case for case in CASES if not case.xfail]
    if os.environ.get("IREELAB_FULL_CORPUS") == "1":
        return cases
    kinds: dict[tuple, Case] = {}
    for case in cases:
        stage = re.search(r"error: \[(\w+)\]", case.error)
        kinds.setdefault((case.name.split("_")[0], stage and stage.group(1)), case)
    return list(kinds.values())


def test_every_kind_of_case_through_the_real_command(tmp_path):
    """`ireelab-compile` as a subprocess on the corpus (a few at a time): exit 1, the
    case's headline, nothing on stdout, no output file."""
    cases = real_command_cases()
    assert len(cases) >= 10
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda case: _run_real_command(case, tmp_path), cases))
    for case, proc, left in results:
        assert proc.returncode == 1, (case.name, proc.stderr)
        check_diagnostic(case, proc.stderr.splitlines())
        assert proc.stdout == "" and left == [], case.name


def test_the_real_command_exits_1_without_traceback(tmp_path):
    case = BY_NAME["verify_wrong_return_type"]
    proc = subprocess.run(
        [sys.executable, "-m", "ireelab.tools.compile", str(case.path), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    check_diagnostic(case, proc.stderr.splitlines())
    assert proc.stdout == "" and not (tmp_path / "o").exists()


def test_stdin_input_is_located_as_stdin(tmp_path):
    case = BY_NAME["parse_undeclared_value"]
    proc = subprocess.run(
        [sys.executable, "-m", "ireelab.tools.compile", "-", "--compile-to=abi"],
        input=case.path.read_text(),
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"<stdin>:{case.expect}")


def test_missing_input_file_is_one_line(tmp_path, capsys):
    code, lines = run_cli([str(tmp_path / "nope.mlir")], capsys)
    assert code == 1 and len(lines) == 1
    assert "cannot read input file" in lines[0] and "nope.mlir" in lines[0]


@pytest.fixture
def broken_canonicalizer(monkeypatch):
    """Make a pass crash the way an ireelab bug would."""

    def explode(self, ctx, module):
        raise RuntimeError("simulated bug\nsecond line")

    monkeypatch.setattr(common.CanonicalizerPass, "apply", explode)


def test_internal_error_is_one_line_unless_debug(broken_canonicalizer, capsys):
    path = str(BY_NAME["verify_wrong_return_type"].path.parent.parent / "valid_add.mlir")
    code, lines = run_cli([path, "--compile-to=input"], capsys)
    assert code == 1 and len(lines) == 2
    assert lines[0].endswith(
        "error: [input] internal error in CanonicalizerPass: RuntimeError: simulated bug"
    )
    # The second line says it is ireelab's bug, where to report it, and how to reproduce it.
    assert lines[1].startswith("note: this is a bug in ireelab, not in the program")
    assert "issue tracker" in lines[1]
    assert f"`ireelab-compile {path} --compile-to=input --debug`" in lines[1]
    code, lines = run_cli([path, "--compile-to=input", "--debug"], capsys)
    assert code == 1
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-1] == "RuntimeError: simulated bug" or "second line" in lines[-1]


# ---- the notebook ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shell() -> InteractiveShell:
    sh = InteractiveShell.instance()
    sh.run_line_magic("load_ext", "ireelab")
    return sh


TEXT_CASES = [case for case in CASES if case.is_text()]


@pytest.mark.parametrize("case", params(TEXT_CASES))
def test_notebook_shows_the_error_at_the_cell_line(case: Case, shell):
    shell.user_ns["robust_mod"] = "before"
    cell = "%%ireecompile robust_mod --show=none\n" + case.path.read_text()
    with capture_output() as captured:
        result = shell.run_cell(cell)
    error = result.error_in_exec
    shown = captured.stdout + captured.stderr
    assert isinstance(error, CompileError), shown
    assert "Traceback" not in shown
    assert shell.user_ns["robust_mod"] == "before"
    assert "nothing was bound to 'robust_mod'" in shown
    if case.location is None:
        return
    line, col = case.location
    # The magic line is the cell's line 1, so the file's line N is the cell's line N + 1.
    assert (error.location.line, error.location.col) == (line + 1, col)
    assert error.headline().startswith(f"{error.location.file}:{line + 1}:{col}: {case.error}")
    source = case.source_line(line)
    if source.strip():
        assert f"\x1b[30;43m{source}" in shown


def test_notebook_internal_error_says_how_to_report(broken_canonicalizer, shell):
    valid = BY_NAME["verify_wrong_return_type"].path.parent.parent / "valid_add.mlir"
    with capture_output() as captured:
        result = shell.run_cell("%%ireecompile robust_bug --show=none\n" + valid.read_text())
    assert isinstance(result.error_in_exec, CompileError)
    assert result.error_in_exec.internal
    shown = captured.stdout + captured.stderr
    assert "internal error in CanonicalizerPass: RuntimeError: simulated bug" in shown
    assert "note: this is a bug in ireelab, not in the program" in shown
    assert "Traceback" not in shown
