"""Differential suite: ireelab against the real IREE 3.13 on dispatch partitioning, the stream
schedule and numerics, over the 13 reference programs and seeded random programs.

Runs where the extra `ireelab[iree]` is installed (CI installs it); each program is compiled
once per session by each compiler. A known difference is an `xfail` naming what IREE does that
ireelab does not (yet); it turns into XPASS when ireelab catches up.
"""

from __future__ import annotations

import numpy as np
import pytest
from iree_support import REFERENCE, needs_iree

from ireelab.eager import evaluate
from ireelab.iree.comparison import ATOL, RTOL
from ireelab.iree.ir_summary import summarize_dispatches, summarize_schedule
from ireelab.iree.program_generator import random_program
from ireelab.iree.program_inputs import random_inputs

pytestmark = needs_iree

SEEDS = range(16)
KNOWN_DIFFERENCES: dict[str, str] = {}
REFERENCE_CASES = [(p.stem, p.read_text()) for p in sorted((REFERENCE / "programs").glob("*.mlir"))]
GENERATED_CASES = [(f"gen{seed}", random_program(seed)) for seed in SEEDS]


def cases(items, extra_marks=()):
    params = []
    for name, source in items:
        marks = list(extra_marks)
        if name in KNOWN_DIFFERENCES:
            marks.append(pytest.mark.xfail(reason=KNOWN_DIFFERENCES[name], strict=False))
        params.append(pytest.param(source, id=name, marks=marks))
    return params


def compiled(source: str, iree_compiled, ireelab_compiled):
    """Both compilers' full compiles of `source`, each once per session and shared by the
    three tests: IREE's keeps its flow and stream IR, ireelab's trace has every stage."""
    theirs = iree_compiled(source, trace=False, keep=("flow", "stream"))
    return theirs, ireelab_compiled(source, device="local-sync")


def partition(summary) -> list[tuple[str, tuple[str, ...]]]:
    return [(site.export, site.ops) for site in summary.sites]


@pytest.mark.parametrize("source", cases(REFERENCE_CASES + GENERATED_CASES))
def test_same_dispatch_partitioning(source: str, iree_compiled, ireelab_compiled) -> None:
    # The same dispatch sites, in the same order, with IREE's names and the same fused ops.
    iree_module, ireelab_module = compiled(source, iree_compiled, ireelab_compiled)
    theirs = iree_module.dispatches()
    mine = summarize_dispatches(ireelab_module.trace.stage("flow")[-1].ir)
    assert partition(mine) == partition(theirs)
    assert len(mine.executables) == len(theirs.executables)


@pytest.mark.parametrize("source", cases(REFERENCE_CASES + GENERATED_CASES))
def test_same_stream_schedule(source: str, iree_compiled, ireelab_compiled) -> None:
    # Execute regions, concurrent blocks, host awaits and stream dispatches.
    iree_module, ireelab_module = compiled(source, iree_compiled, ireelab_compiled)
    ours = summarize_schedule(ireelab_module.trace.stage("stream")[-1].ir)
    assert ours == iree_module.schedule()


def close(value: np.ndarray, reference: np.ndarray) -> bool:
    scale = float(np.max(np.abs(reference))) if reference.size else 0.0
    return value.shape == reference.shape and bool(
        np.all(np.abs(value.astype(np.float64) - reference) <= ATOL + RTOL * scale)
    )


@pytest.mark.parametrize(
    "source",
    [pytest.param(s, id=n) for n, s in GENERATED_CASES]
    + [pytest.param(s, id=n, marks=pytest.mark.slow) for n, s in REFERENCE_CASES],
)
def test_same_results(source: str, iree_compiled, ireelab_compiled) -> None:
    # One call on the same random inputs: ireelab, IREE and numpy eager agree (f32 tolerance).
    name, args = random_inputs(source, seed=1)
    iree_module, ireelab_module = compiled(source, iree_compiled, ireelab_compiled)
    theirs = iree_module.invoke_all(name, *args, device="local-sync")
    result = ireelab_module.invoke(name, *args)
    ours = result if isinstance(result, tuple) else (result,)
    eager = evaluate(source, name, *args)
    assert len(ours) == len(theirs) == len(eager)
    for mine, real, expected in zip(ours, theirs, eager, strict=True):
        assert close(mine, real), f"ireelab vs IREE: max |Δ| {np.max(np.abs(mine - real)):.3g}"
        assert close(real, np.asarray(expected, dtype=np.float64))
