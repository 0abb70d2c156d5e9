"""Open the tutorials: JupyterLab on `notebooks/`, or, headless, run one and write its HTML.

The README's main command: `python -m ireelab.notebook.tutorials` starts JupyterLab with the
quickstart open; `--headless` executes the quickstart (or `--notebook NAME`, or `--all`) in a
fresh kernel with nbclient and writes each as HTML with nbconvert, for people without a
browser at hand. IREE ships its samples as notebooks too (`samples/colab/`); these are ours.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

QUICKSTART = "00_quickstart.ipynb"

TIMEOUT_SECONDS = 600
"""Per cell, when executing headless (the first numba compile of many kernels is the slow part)."""


def find_notebooks(explicit: str | None = None) -> Path:
    """The tutorials folder: `--notebooks`, else the checkout's `notebooks/`, else `./notebooks`."""
    candidates = (
        [Path(explicit)]
        if explicit
        else [
            Path(__file__).resolve().parents[2] / "notebooks",
            Path.cwd() / "notebooks",
        ]
    )
    for path in candidates:
        if (path / QUICKSTART).is_file():
            return path
    looked = ", ".join(str(p) for p in candidates)
    raise SystemExit(
        f"ireelab-tutorials: no {QUICKSTART} found (looked in {looked}); pass --notebooks DIR"
    )


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ireelab-tutorials",
        description="Open ireelab's tutorials in JupyterLab, or run them headless to HTML.",
    )
    p.add_argument("--notebooks", metavar="DIR", help="the tutorials folder (default: found)")
    p.add_argument(
        "--headless",
        action="store_true",
        help="execute without a browser and write HTML instead of opening JupyterLab",
    )
    p.add_argument(
        "--notebook",
        default=QUICKSTART,
        metavar="NAME",
        help=f"with --headless: which notebook to run (default {QUICKSTART})",
    )
    p.add_argument("--all", action="store_true", help="with --headless: run every tutorial")
    p.add_argument(
        "--output",
        default=".",
        metavar="DIR",
        help="with --headless: where the HTML goes (default: the current folder)",
    )
    p.add_argument(
        "--no-browser",
        action="store_true",
        help="start JupyterLab without opening a browser (print its URL)",
    )
    return p


def lab_command(notebooks: Path, no_browser: bool) -> list[str]:
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={notebooks}"]
    if no_browser:
        command.append("--no-browser")
    return [*command, QUICKSTART]


def run_headless(notebook: Path, output_dir: Path) -> Path:
    """Execute `notebook` in a fresh kernel (its folder as cwd) and write `<name>.html`."""
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    nb = nbformat.read(notebook, as_version=4)
    client = NotebookClient(
        nb,
        timeout=TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    client.execute()
    body, _ = HTMLExporter().from_notebook_node(nb)
    output_dir.mkdir(parents=True, exist_ok=True)
    target = output_dir / (notebook.stem + ".html")
    target.write_text(body, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    notebooks = find_notebooks(args.notebooks)
    if not args.headless:
        return subprocess.call(lab_command(notebooks, args.no_browser))
    names = (
        sorted(p.name for p in notebooks.glob("[0-9][0-9]_*.ipynb"))
        if args.all
        else [args.notebook]
    )
    for name in names:
        path = notebooks / name
        if not path.is_file():
            print(f"ireelab-tutorials: no notebook '{name}' in {notebooks}", file=sys.stderr)
            return 2
        print(f"running {name} ...", flush=True)
        try:
            target = run_headless(path, Path(args.output))
        except Exception as err:  # a failing cell: report it in one line and stop
            first = str(err).strip().splitlines()
            print(
                f"ireelab-tutorials: {name} failed: {type(err).__name__}: "
                f"{first[-1] if first else ''}",
                file=sys.stderr,
            )
            return 1
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
