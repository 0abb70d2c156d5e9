"""A real IPython shell with `%load_ext ireelab` for the notebook tests."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output


class Cell:
    """What running one cell produced: the result, stdout/stderr and rich outputs."""

    def __init__(self, result, captured):
        self.result = result
        self.error = result.error_in_exec or result.error_before_exec
        self.stdout = captured.stdout
        self.stderr = captured.stderr
        self.outputs = [o.data for o in captured.outputs]


@pytest.fixture(scope="session")
def shell() -> InteractiveShell:
    sh = InteractiveShell.instance()
    sh.run_line_magic("load_ext", "ireelab")
    return sh


@pytest.fixture
def run(shell):
    names_before = set(shell.user_ns)

    def run_cell(text: str) -> Cell:
        with capture_output() as captured:
            result = shell.run_cell(text)
        return Cell(result, captured)

    yield run_cell
    for name in set(shell.user_ns) - names_before:
        del shell.user_ns[name]
