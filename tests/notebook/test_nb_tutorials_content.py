"""The tutorials as files: one per chapter of the founding note, in order, outputs cleared.

Executing them is nbmake's job (`pytest --nbmake notebooks/`); this checks what a reader and
Binder rely on before anything runs.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from nb_helpers import REPO

CHAPTERS = [
    "00_quickstart",
    "01_input_and_abi",
    "02_devices",
    "03_flow",
    "04_stream",
    "05_codegen",
    "06_hal_and_vm",
    "07_real_iree",
    "08_from_frameworks",
]
NOTEBOOKS = REPO / "notebooks"


def _read(name: str):
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


def test_one_notebook_per_chapter_in_order():
    found = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    assert found == CHAPTERS


@pytest.mark.parametrize("name", CHAPTERS)
def test_valid_cleared_and_self_contained(name):
    nb = _read(name)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith(f"# {name[:2]} ·")
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and code[0].source.startswith("%load_ext ireelab")
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None
    # Files go to a temporary folder, never next to the notebook in the repository.
    text = "\n".join(c.source for c in code)
    assert not re.search(r"\.save\([\"']", text)


@pytest.mark.parametrize("name", CHAPTERS[:7])
def test_each_stage_notebook_shows_ir_and_a_picture(name):
    text = "\n".join(c.source for c in _read(name).cells if c.cell_type == "code")
    assert "%%ireecompile" in text
    pictures = ("dispatch_graph(", "timepoint_graph(", "stepper(", "graphviz.Digraph(", "timeline(")
    assert any(p in text for p in pictures) or "--show=summary,dispatches" in text
    assert re.search(r"\.ir\b|grep\(|after\(|print\(", text)


def test_only_expected_errors():
    # A cell may fail on purpose only when tagged, so nbmake accepts it.
    for name in CHAPTERS:
        for cell in _read(name).cells:
            if "raises-exception" in cell.metadata.get("tags", []):
                assert cell.source.startswith("%%ireecompile broken")
