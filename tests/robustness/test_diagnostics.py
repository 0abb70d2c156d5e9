"""Issue 9.1: every case of the bad-input corpus gets a located one-line diagnostic.

For each `tests/bad_inputs/compile/*.mlir`: `ireelab-compile` exits with 1, prints
`FILE:LINE:COL: error: [stage] message`, the offending line and a caret, no traceback, and
leaves no output file behind (nor truncates an existing one); the notebook magic shows the same
message at the cell's line with that line highlighted and binds nothing.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from bad_input_corpus import Case, load_cases, params
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

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
    assert code == 1 and len(lines) == 1
    assert lines[0].endswith(
        "error: [input] internal error in CanonicalizerPass: RuntimeError: simulated bug"
    )
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
