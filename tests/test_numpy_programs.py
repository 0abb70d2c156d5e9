"""The benchmarks' hand-written numpy programs compute what the MLIR programs compute
(checked against numpy eager, the op-by-op reference), so the baseline is the same program."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from ireelab.eager import evaluate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from numpy_programs import NUMPY_PROGRAMS  # noqa: E402


@pytest.mark.parametrize("name", sorted(NUMPY_PROGRAMS))
def test_by_hand_equals_eager(reference_dir, name):
    entry = json.loads((reference_dir / "iree-3.13.json").read_text())["programs"][name]
    rng = np.random.default_rng(3)
    args = [rng.standard_normal(s, dtype=np.float32) for s in entry["input_shapes"]]
    text = (reference_dir / "programs" / f"{name}.mlir").read_text()
    ours = evaluate(text, entry["function"], *args)
    theirs = NUMPY_PROGRAMS[name](*args)
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    for o, t in zip(ours, theirs, strict=True):
        scale = max(1.0, float(np.abs(t).max()))
        np.testing.assert_allclose(o, t, rtol=1e-4, atol=1e-5 * scale)
