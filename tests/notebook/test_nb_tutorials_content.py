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
    pictures = ("dispatch_graph(", "timepoint_graph(", "stepper(", "View(", "timeline(")
    assert any(p in text for p in pictures) or "--show=summary,dispatches" in text
    assert re.search(r"\.ir\b|grep\(|after\(|print\(", text)


def test_only_expected_errors():
    # A cell may fail on purpose only when tagged, so nbmake accepts it.
    for name in CHAPTERS:
        for cell in _read(name).cells:
            if "raises-exception" in cell.metadata.get("tags", []):
                assert cell.source.startswith("%%ireecompile broken")


def _table_rows(text: str) -> list[list[str]]:
    """A markdown table's rows as lists of cells, without the `|---|` line."""
    rows = [
        line.strip().strip("|").split("|") for line in text.splitlines() if line.startswith("|")
    ]
    rows = [[cell.strip() for cell in row] for row in rows]
    return [row for row in rows if not all(cell and set(cell) <= set("-:") for cell in row)]


def test_quickstart_stage_table_has_the_tvm_column():
    """The founding note's section 2: every stage A-G with its TVM 0.6 counterpart."""
    header, *rows = _table_rows(_read("00_quickstart").cells[0].source)
    assert header[-1] == "TVM 0.6 counterpart"
    assert [row[0] for row in rows] == list("ABCDEFG")
    assert all(len(row) == len(header) and row[-1] for row in rows)
    counterpart = {row[0]: row[-1] for row in rows}
    assert "relay.frontend" in counterpart["A"] and "FuseOps" in counterpart["C"]
    assert counterpart["D"].startswith("none")


def test_quickstart_has_the_tvm_layer_table():
    """The founding note's section 4: layer, job, TVM 0.6, what differs, for Flow to VM."""
    cells = [c for c in _read("00_quickstart").cells if c.source.startswith("## Coming from TVM")]
    assert len(cells) == 1
    header, *rows = _table_rows(cells[0].source)
    assert header == ["IREE layer", "its job", "TVM 0.6", "what differs"]
    assert [row[0] for row in rows] == ["Flow", "Stream", "Codegen", "HAL", "VM"]
    assert all(len(row) == 4 and all(row) for row in rows)


STAGE_TVM = {
    "01_input_and_abi": ["relay.frontend", "NDArray"],
    "02_devices": ["relay.build", "target"],
    "03_flow": ["FuseOps", "one kernel"],
    "04_stream": ["TVM 0.6 has nothing here", "timepoint"],
    "05_codegen": ["schedule", "tvm.build"],
    "06_hal_and_vm": ["DeviceAPI", "graph runtime"],
}


@pytest.mark.parametrize("name", sorted(STAGE_TVM))
def test_each_stage_opens_with_its_tvm_counterpart(name):
    second = _read(name).cells[1]
    assert second.cell_type == "markdown" and second.source.startswith("### Coming from TVM 0.6")
    assert all(term in second.source for term in STAGE_TVM[name])
