"""Issue 9.5: random valid programs, compiled and run, agree with numpy.

`hypothesis_programs.programs()` draws a program and its numpy meaning; each example compiles
it through every stage, runs it on `local-sync`, and compares with that meaning and with
`ireelab.eager` (the reference semantics). CI runs the `ci` profile (4 x 10 examples,
derandomized so the same programs, and numba's cached kernels, come back each run; each
example costs about 1.5 s of CPU on a clean cache, half of it numba's, so CI samples). The
full run (4 x 30) and the long run (4 x 300 = 1,200 programs):

    HYPOTHESIS_PROFILE=full python -m pytest -q -n 2 tests/robustness/test_random_programs.py
    HYPOTHESIS_PROFILE=long python -m pytest -q -n 2 tests/robustness/test_random_programs.py

A failure hypothesis finds (and shrinks) goes into `random_regressions/` as a `.mlir` file,
with `// XFAIL:` while it is open; `test_regression` runs every file there.

Tolerance: results are f32 after at most five ops on values of magnitude <= ~100, where
ireelab's loops and numpy sum in different orders and numba's `tanh`/`exp` may differ from
numpy's by an ulp: rtol 1e-5, plus atol 1e-5 x the largest magnitude in the result for
cancellation in sums and matmuls.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_programs import Program, programs

import ireelab
from ireelab.eager import evaluate

RUN = os.environ.get("HYPOTHESIS_PROFILE", "ci")
MIN_DIM = 1
"""Both profiles draw unit extents (FoldUnitExtentDimsPass folds them to rank-0 tensors where
every dimension of an operand is unit, `random_regressions/*unit*.mlir`)."""

_COMMON = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
# CI does not shrink (each shrink step is a compile); the long run does, for regression files.
_DERANDOMIZED = dict(derandomize=True, phases=[Phase.explicit, Phase.generate], **_COMMON)
settings.register_profile("ireelab-ci", max_examples=10, **_DERANDOMIZED)  # 4 x 10 = 40
settings.register_profile("ireelab-full", max_examples=30, **_DERANDOMIZED)  # 4 x 30 = 120
settings.register_profile("ireelab-long", max_examples=300, **_COMMON)
PROFILE = settings.get_profile(f"ireelab-{RUN if RUN in ('full', 'long') else 'ci'}")

RTOL = 1e-5
REGRESSIONS = Path(__file__).resolve().parent / "random_regressions"


def assert_close(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert got.dtype == np.float32, f"{what}: dtype {got.dtype}"
    scale = max(1.0, float(np.abs(want).max(initial=0.0)))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=RTOL * scale, err_msg=what)


def as_list(results) -> list[np.ndarray]:
    return list(results) if isinstance(results, tuple | list) else [results]


def check(program: Program, seed: int) -> None:
    inputs = program.inputs(seed)
    want = program.expected(inputs)
    module = ireelab.compile(program.source, device="local-sync")
    got = as_list(module.f(*inputs))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert_close(g, w, f"result {i} against numpy")
    for i, (e, w) in enumerate(zip(evaluate(program.source, "f", *inputs), want, strict=True)):
        assert_close(np.asarray(e), w, f"result {i}: ireelab.eager against numpy")
    # local-task runs the same kernels (as native plans where it can): the very same bits.
    tasked = as_list(module.invoke("f", *inputs, device="local-task"))
    for i, (t, g) in enumerate(zip(tasked, got, strict=True)):
        np.testing.assert_array_equal(t, g, err_msg=f"result {i}: local-task against local-sync")


SEEDS = st.integers(0, 2**16)


@PROFILE
@given(programs(kinds=("elementwise", "broadcast"), min_dim=MIN_DIM), SEEDS)
def test_elementwise_chains_with_broadcasts(program: Program, seed: int):
    check(program, seed)


@PROFILE
@given(programs(kinds=("reduction", "elementwise"), min_dim=MIN_DIM), SEEDS)
def test_reductions(program: Program, seed: int):
    check(program, seed)


@PROFILE
@given(programs(kinds=("matmul", "transpose", "elementwise"), min_dim=MIN_DIM), SEEDS)
def test_matmuls_and_transposes(program: Program, seed: int):
    check(program, seed)


@PROFILE
@given(programs(min_dim=MIN_DIM), SEEDS)
def test_mixed_programs(program: Program, seed: int):
    check(program, seed)


def test_strategy_reaches_every_family():
    """The mixed strategy is not stuck in one corner: every family shows up."""
    seen: set[str] = set()

    @settings(max_examples=60, derandomize=True, deadline=None, database=None)
    @given(programs())
    def collect(program: Program):
        seen.update(program.kinds)
        assert program.source.startswith("func.func @f(")

    collect()
    assert seen == {"elementwise", "broadcast", "reduction", "matmul", "transpose"}


def _regressions() -> list:
    params = []
    for path in sorted(REGRESSIONS.glob("*.mlir")):
        xfail = re.search(r"^// XFAIL: (.*)$", path.read_text(), re.MULTILINE)
        marks = [pytest.mark.xfail(strict=True, reason=xfail.group(1))] if xfail else []
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


@pytest.mark.parametrize("path", _regressions())
def test_regression(path: Path):
    """A program hypothesis once broke ireelab with: it runs and agrees with ireelab.eager."""
    source = path.read_text()
    module = ireelab.compile(source, device="local-sync")
    shapes = [
        tuple(int(d) for d in dims.split("x") if d)
        for dims in re.findall(r"%arg\d+: tensor<((?:\d+x)*)f32>", source.split("{")[0])
    ]
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(-2, 2, size=s).astype(np.float32) for s in shapes]
    want = [np.asarray(w) for w in evaluate(source, "f", *inputs)]
    for g, w in zip(as_list(module.f(*inputs)), want, strict=True):
        assert_close(g, w, path.name)
