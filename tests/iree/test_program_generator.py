"""Random programs for the differential suite: valid, deterministic, varied."""

from __future__ import annotations

import numpy as np

from ireelab.eager import evaluate
from ireelab.iree.program_generator import random_program
from ireelab.iree.program_inputs import random_inputs


def test_same_seed_same_program() -> None:
    assert random_program(5) == random_program(5)
    assert random_program(5) != random_program(6)


def test_programs_parse_and_run_under_numpy_eager() -> None:
    kinds = set()
    for seed in range(20):
        source = random_program(seed)
        name, args = random_inputs(source, seed=seed)
        results = evaluate(source, name, *args)
        assert results and all(np.all(np.isfinite(r)) for r in results), seed
        kinds |= {k for k in ("linalg.matmul", "reduction", "(d1, d0)", "(d1)>") if k in source}
    # the seeds cover matmuls, reductions, transposes and broadcasts
    assert kinds == {"linalg.matmul", "reduction", "(d1, d0)", "(d1)>"}
