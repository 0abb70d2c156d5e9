"""The tutorials launcher: JupyterLab command line, and headless execution to HTML."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nb_helpers import REPO

from ireelab.notebook import tutorials


def test_finds_the_checkouts_notebooks():
    assert tutorials.find_notebooks() == REPO / "notebooks"


def test_missing_folder_is_a_clear_exit(tmp_path):
    with pytest.raises(SystemExit, match="no 00_quickstart.ipynb found"):
        tutorials.find_notebooks(str(tmp_path))


def test_lab_command_opens_the_quickstart(tmp_path):
    command = tutorials.lab_command(tmp_path, no_browser=True)
    assert command[:3] == [sys.executable, "-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={tmp_path}" in command and "--no-browser" in command
    assert command[-1] == "00_quickstart.ipynb"


def _notebook(folder: Path, name: str, source: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# t"), nbformat.v4.new_code_cell(source)]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path = folder / name
    nbformat.write(nb, path)
    return path


def test_headless_runs_in_the_notebooks_folder_and_writes_html(tmp_path, capsys):
    notebooks = tmp_path / "nb"
    notebooks.mkdir()
    (notebooks / "data.txt").write_text("found-me")
    _notebook(notebooks, "00_quickstart.ipynb", "print(open('data.txt').read())")
    out = tmp_path / "html"
    code = tutorials.main(["--headless", "--notebooks", str(notebooks), "--output", str(out)])
    assert code == 0
    page = (out / "00_quickstart.html").read_text()
    assert "found-me" in page
    assert "wrote" in capsys.readouterr().out


def test_headless_failure_is_one_line(tmp_path, capsys):
    _notebook(tmp_path, "00_quickstart.ipynb", "raise ValueError('boom')")
    code = tutorials.main(["--headless", "--notebooks", str(tmp_path), "--output", str(tmp_path)])
    assert code == 1
    err = capsys.readouterr().err
    assert "00_quickstart.ipynb failed" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "00_quickstart.html").exists()


def test_headless_all_runs_every_tutorial_in_order(tmp_path, capsys):
    notebooks = tmp_path / "nb"
    notebooks.mkdir()
    _notebook(notebooks, "00_quickstart.ipynb", "print('zero')")
    _notebook(notebooks, "01_next.ipynb", "print('one')")
    _notebook(notebooks, "scratch.ipynb", "raise ValueError('not a tutorial')")
    out = tmp_path / "html"
    code = tutorials.main(
        ["--headless", "--all", "--notebooks", str(notebooks), "--output", str(out)]
    )
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["00_quickstart.html", "01_next.html"]
    assert "zero" in (out / "00_quickstart.html").read_text()
    assert "one" in (out / "01_next.html").read_text()
    printed = capsys.readouterr().out
    assert printed.index("running 00_quickstart") < printed.index("running 01_next")
    assert "2 of 2 tutorials ran to the end" in printed


def test_headless_all_reports_each_failure_and_goes_on(tmp_path, capsys):
    _notebook(tmp_path, "00_quickstart.ipynb", "raise ValueError('boom')")
    _notebook(tmp_path, "01_next.ipynb", "print('still runs')")
    out = tmp_path / "html"
    code = tutorials.main(
        ["--headless", "--all", "--notebooks", str(tmp_path), "--output", str(out)]
    )
    assert code == 1
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        "ireelab-tutorials: 00_quickstart.ipynb failed: CellExecutionError: ValueError: boom"
    ]
    assert "still runs" in (out / "01_next.html").read_text()
    assert "1 of 2 tutorials ran to the end" in captured.out
