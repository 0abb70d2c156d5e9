"""Every tutorial runs top to bottom on a PATH without Graphviz's `dot`, pictures included.

A fresh machine with only pip has no `dot`; CI apt-installs graphviz, so this test strips
`dot` from the kernel's PATH itself and runs in the normal pytest command, beside nbmake's
run of the same notebooks with `dot` present. The kernel shares this process's environment
otherwise (IREELAB_CACHE_DIR included), so compiled kernels are reused between the two runs.
"""

from __future__ import annotations

import os

import pytest
from nb_helpers import REPO
from without_dot import path_without_dot

from ireelab.notebook import tutorials

NOTEBOOKS = REPO / "notebooks"

PICTURES = {
    "00_quickstart": 1,
    "01_input_and_abi": 1,
    "02_devices": 1,
    "03_flow": 4,
    "04_stream": 3,
    "05_codegen": 1,
    "06_hal_and_vm": 1,
    "07_real_iree": 0,
    "08_from_frameworks": 1,
}
"""How many pictures each tutorial draws (at least): what a reader sees in JupyterLab."""


@pytest.fixture(scope="module")
def env_without_dot(tmp_path_factory) -> dict[str, str]:
    return {**os.environ, "PATH": path_without_dot(tmp_path_factory.mktemp("path"))}


def test_the_sample_draws():
    assert set(SAMPLE) <= set(DRAWING)


def test_every_tutorial_is_listed():
    assert [name.removesuffix(".ipynb") for name in tutorials.tutorial_names(NOTEBOOKS)] == sorted(
        PICTURES
    )


def _pictures(nb) -> list[tuple[str, list[str]]]:
    """Each picture (its SVG) with the stderr its cell printed."""
    pictures = []
    for cell in nb.cells:
        outputs = cell.get("outputs", [])
        stderr = [o.text for o in outputs if o.output_type == "stream" and o.name == "stderr"]
        for output in outputs:
            data = output.get("data", {})
            if "image/svg+xml" in data:
                pictures.append((data["image/svg+xml"], stderr))
            elif "<svg" in data.get("text/html", ""):
                pictures.append((data["text/html"], stderr))
    return pictures


DRAWING = sorted(name for name, count in PICTURES.items() if count)
"""The tutorials that draw: one that draws nothing (07_real_iree) would check nothing
nbmake's run of it does not, and costs 10-16 s."""

SAMPLE = ["03_flow", "04_stream"]
"""Run in CI: the two tutorials that draw every kind of picture the others draw (dispatch
regions, timepoint graphs and the stage summary, through the same renderer), 7 of the 13 pictures.
`IREELAB_FULL_TESTS=1` runs every drawing tutorial (each costs 10-20 s cold), as the
fresh-machine check in the README does with `dot` off the PATH."""

RUN = DRAWING if os.environ.get("IREELAB_FULL_TESTS") == "1" else SAMPLE


@pytest.mark.parametrize("name", RUN)
def test_tutorial_runs_and_draws_without_dot(name, env_without_dot):
    nb = tutorials.execute(NOTEBOOKS / f"{name}.ipynb", env=env_without_dot)
    errors = [
        cell
        for cell in nb.cells
        if any(o.output_type == "error" for o in cell.get("outputs", []))
        and "raises-exception" not in cell.metadata.get("tags", [])
    ]
    assert errors == []
    ran = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    assert all(c.execution_count is not None for c in ran), "a cell did not run"
    pictures = _pictures(nb)
    assert len(pictures) >= PICTURES[name]
    for svg, stderr in pictures:
        assert "</svg>" in svg
        assert "(graphviz-pure)" in svg  # drawn by the wheel: the kernel saw no `dot`
        assert stderr == []  # no renderer warnings under the picture
