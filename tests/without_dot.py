"""A `PATH` without Graphviz's `dot`: what a fresh machine with only pip installs looks like.

CI apt-installs graphviz, so the tests that must see a machine without it build this PATH
themselves: every directory holding `dot` is replaced by a folder of symlinks to everything
else in it (python, jupyter, ... stay reachable; only `dot` is gone).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def path_without_dot(scratch: Path, path: str | None = None) -> str:
    """`path` (default `$PATH`) with `dot` removed, using `scratch` for the symlink folders."""
    entries = []
    for i, entry in enumerate((path if path is not None else os.environ["PATH"]).split(os.pathsep)):
        folder = Path(entry)
        if not (folder / "dot").exists():
            entries.append(entry)
            continue
        copy = scratch / f"path{i}"
        copy.mkdir(parents=True, exist_ok=True)
        for item in folder.iterdir():
            if item.name != "dot" and not (copy / item.name).exists():
                (copy / item.name).symlink_to(item)
        entries.append(str(copy))
    stripped = os.pathsep.join(entries)
    assert shutil.which("dot", path=stripped) is None
    return stripped
