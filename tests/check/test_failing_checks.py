"""A check that differs fails, says what differed as IREE's check module says it, and does
not stop its function; `ireelab-check-module` exits 1 and prints gtest's lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from check_support import compiled, compiled_module

FAILING = Path(__file__).resolve().parent / "failing" / "changed_expectations.mlir"

EXPECTED = {
    "expect_true_of_zero": ["Expected 0 to be nonzero."],
    "expect_false_of_three": ["Expected 3 to be zero."],
    "expect_all_true_with_a_zero": ["element #1 is zero", "4xi32=2 0 4 8"],
    "expect_eq_const_one_value_changed": [
        "Expected equality of these values. Contents does not match.\n"
        "  lhs:\n    4xi32=11 22 33 44\n  rhs:\n    4xi32=11 22 34 44"
    ],
    "expect_eq_different_shapes": ["Shapes do not match.", "2x2xi32=[2 4][6 8]"],
    "expect_almost_eq_outside_default_atol": [
        "tolerance parameters atol=0.0001, rtol=0. The first failure occurs at index 1 as "
        "the lhs value 4 differs from the rhs value 4.001 by 9.999e-04."
    ],
    "expect_almost_eq_rtol_too_small": ["atol=0.01, rtol=0.0001", "index 0"],
    "rank_0_result_printed_without_dims": ["  lhs:\n    f32=5\n  rhs:\n    f32=5.5"],
    "dynamic_constant_sum_changed": ["  lhs:\n    3xi32=2 4 6\n  rhs:\n    3xi32=2 4 7"],
    "dynamic_expect_eq_one_value_changed": [
        "Contents does not match.\n  lhs:\n    3xi32=2 4 6\n  rhs:\n    3xi32=2 4 7"
    ],
    "dynamic_expect_eq_run_time_shapes_differ": ["Shapes do not match.", "2xi32=2 4"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_changed_expectation_fails_with_iree_message(name):
    from ireelab.tools.check_module import run_test

    outcome = run_test(compiled(FAILING), name)
    assert not outcome.passed
    text = "\n".join(outcome.failures)
    for fragment in EXPECTED[name]:
        assert fragment in text


def test_a_failed_check_does_not_stop_the_function():
    from ireelab.tools.check_module import run_test

    outcome = run_test(compiled(FAILING), "a_failed_check_does_not_stop_the_function")
    assert len(outcome.failures) == 2
    assert "2xi32=2 5" in outcome.failures[0] and "2xi32=9 4" in outcome.failures[1]


def _check_module(tmp_path: Path, source: Path, *flags: str):
    """`ireelab-check-module` on the module this session compiled from `source` (saved, as
    `ireelab-compile` would write it; its kernels are in the cache already)."""
    module = tmp_path / "m.ilvm"
    compiled_module(source).save(str(module))
    return subprocess.run(
        [sys.executable, "-m", "ireelab.tools.check_module", f"--module={module}", *flags],
        capture_output=True,
        text=True,
    )


def test_tool_exits_1_and_prints_gtest_lines_for_failures(tmp_path):
    run = _check_module(tmp_path, FAILING)
    assert run.returncode == 1
    assert "[ RUN      ] module.expect_true_of_zero\n" in run.stdout
    assert "[  FAILED  ] module.expect_true_of_zero (" in run.stdout
    assert "12 FAILED TESTS" in run.stdout


def test_tool_exits_0_when_every_check_passes(tmp_path):
    run = _check_module(tmp_path, FAILING.parent.parent / "check_ops.mlir", "--device=local-task")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[       OK ] module.expect_eq_const_of_a_sum (" in run.stdout
    assert "[  FAILED  ]" not in run.stdout
