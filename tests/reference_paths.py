"""Where the shared reference material lives: `../shared/reference` beside the checkout (as
laid out for developers and CI), or `$IREELAB_REFERENCE`."""

from __future__ import annotations

import os
from pathlib import Path


def _find() -> Path:
    root = Path(__file__).resolve().parent.parent
    candidates = [os.environ.get("IREELAB_REFERENCE"), root.parent / "shared" / "reference"]
    candidates.append("/work/shared/reference")
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    raise RuntimeError("reference material not found: set IREELAB_REFERENCE")


REFERENCE = _find()
