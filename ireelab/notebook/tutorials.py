"""Open the tutorials: JupyterLab on `notebooks/`, or, headless, run them and write HTML.

The README's main command: `python -m ireelab.notebook.tutorials` starts JupyterLab with the
quickstart open; `--headless` executes the quickstart (or `--notebook NAME`, or with `--all`
every tutorial in order) in a fresh kernel with nbclient and writes each as HTML with
nbconvert, for people without a browser at hand. IREE ships its samples as notebooks too
(`samples/colab/`); these are ours.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

QUICKSTART = "00_quickstart.ipynb"

_ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
"""The kernel colours its tracebacks; the one-line failure report is plain text."""

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
    p.add_argument(
        "--all",
        action="store_true",
        help="with --headless: run every tutorial in order, one HTML each (a failure does "
        "not stop the rest; the exit code is 1 if any failed)",
    )
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


def execute(notebook: Path, env: dict[str, str] | None = None):
    """Run `notebook` top to bottom in a fresh kernel (its folder as cwd); the executed notebook.

    `env`: the kernel's environment (default: this process's), e.g. a `PATH` without `dot`.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(notebook, as_version=4)
    client = NotebookClient(
        nb,
        timeout=TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    client.execute(**({"env": env} if env is not None else {}))
    return nb


def run_headless(notebook: Path, output_dir: Path) -> Path:
    """Execute `notebook` in a fresh kernel (its folder as cwd) and write `<name>.html`."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter().from_notebook_node(execute(notebook))
    output_dir.mkdir(parents=True, exist_ok=True)
    target = output_dir / (notebook.stem + ".html")
    target.write_text(body, encoding="utf-8")
    return target


def tutorial_names(notebooks: Path) -> list[str]:
    """Every tutorial in `notebooks`, in order (`NN_name.ipynb`)."""
    return sorted(p.name for p in notebooks.glob("[0-9][0-9]_*.ipynb"))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    notebooks = find_notebooks(args.notebooks)
    if not args.headless:
        return subprocess.call(lab_command(notebooks, args.no_browser))
    names = tutorial_names(notebooks) if args.all else [args.notebook]
    failed = []
    for name in names:
        path = notebooks / name
        if not path.is_file():
            print(f"ireelab-tutorials: no notebook '{name}' in {notebooks}", file=sys.stderr)
            return 2
        print(f"running {name} ...", flush=True)
        try:
            target = run_headless(path, Path(args.output))
        except Exception as err:  # a failing cell: report it in one line, go on with the next
            first = _ANSI_COLOUR.sub("", str(err)).strip().splitlines()
            print(
                f"ireelab-tutorials: {name} failed: {type(err).__name__}: "
                f"{first[-1] if first else ''}",
                file=sys.stderr,
            )
            failed.append(name)
            continue
        print(f"wrote {target}", flush=True)
    if len(names) > 1:
        print(f"{len(names) - len(failed)} of {len(names)} tutorials ran to the end")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
