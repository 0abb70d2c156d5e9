"""Every reference program compiled by ireelab and run, against numpy eager (issue 3).

Inputs are standard normal; results are compared at rtol 1e-4 and an absolute tolerance of
1e-5 times the largest magnitude in the result (f32 sums taken in different orders; the
three-layer MLP's values reach ~2e4).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from ireelab.eager import evaluate

from .conftest import REFERENCE_PROGRAMS


def check(ours, theirs, name):
    for o, t in zip(ours, theirs, strict=True):
        assert o.shape == t.shape and o.dtype == t.dtype, name
        scale = max(1.0, float(np.abs(t).max()))
        np.testing.assert_allclose(o, t, rtol=1e-4, atol=1e-5 * scale, err_msg=name)


@pytest.mark.parametrize("name", REFERENCE_PROGRAMS)
def test_reference_program_matches_numpy(compile_cached, reference_dir, name):
    entry = json.loads((reference_dir / "iree-3.13.json").read_text())["programs"][name]
    text = (reference_dir / "programs" / f"{name}.mlir").read_text()
    rng = np.random.default_rng(11)
    args = [rng.standard_normal(s, dtype=np.float32) for s in entry["input_shapes"]]
    mod = compile_cached(text)
    ours = mod.invoke(entry["function"], *args)
    ours = ours if isinstance(ours, tuple) else (ours,)
    check(ours, evaluate(text, entry["function"], *args), name)
