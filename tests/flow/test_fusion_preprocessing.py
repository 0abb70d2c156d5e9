"""FusionPreprocessingPass (`iree-dispatch-creation-fusion-preprocessing`): the golden file
tests/filecheck/flow/fusion_preprocessing.mlir holds for the real IREE pass too, and the
programs it changes (standalone transposes, same-permutation inputs, a pad of a pad) compute
what numpy does. Their dispatch names are compared with iree-compile by
test_iree_differential.py (tests/flow/programs/).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from flow_helpers import FLOW_PASSES, iree_opt_meets_golden, run
from reference_paths import REFERENCE

import ireelab
from ireelab.dialects import flow

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"
GOLDEN = HERE.parent / "filecheck" / "flow" / "fusion_preprocessing.mlir"
RNG = np.random.default_rng(5)


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _compile(name: str):
    return ireelab.compile((PROGRAMS / f"{name}.mlir").read_text(), device="local-sync")


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs the real IREE")
def test_iree_pass_meets_the_same_golden() -> None:
    # the CHECK lines ireelab-opt is held to are what IREE's own pass prints
    pipeline = "builtin.module(util.func(iree-dispatch-creation-fusion-preprocessing))"
    iree_opt_meets_golden(GOLDEN, pipeline)


@pytest.mark.parametrize(
    "name, export",
    [
        ("transpose_standalone_102", "swap_outer_dispatch_0_transpose_2x3x4_f32"),
        ("transpose_standalone_201", "rotate_dispatch_0_transpose_6x5_f32"),
        ("transposed_inputs_elementwise", "add_transposed_dispatch_0_elementwise_transpose_2x3x4_f32"),
        ("pad_of_pad", "pad_twice_dispatch_0_slow_memcpy"),
    ],
)  # fmt: skip
def test_dispatch_names(name: str, export: str) -> None:
    # the names iree-compile gives these programs (recorded from IREE 3.13), also without IREE
    module = run((PROGRAMS / f"{name}.mlir").read_text(), FLOW_PASSES)
    exports = [o.sym_name.data for o in module.walk() if isinstance(o, flow.ExecutableExportOp)]
    assert exports == [export]


def test_transpose_102_runs() -> None:
    x = _f32(2, 3, 4)
    np.testing.assert_array_equal(
        _compile("transpose_standalone_102").swap_outer(x), x.transpose(1, 0, 2)
    )


def test_transpose_201_runs() -> None:
    # the generic reads x[d1, d2, d0] for result (d0, d1, d2)
    x = _f32(2, 3, 5)
    np.testing.assert_array_equal(
        _compile("transpose_standalone_201").rotate(x), x.transpose(2, 0, 1)
    )


def test_transposed_inputs_with_index_run() -> None:
    # out[i, j, k] = (a[k, j, i] + b[k, j, i]) * i: linalg.index 0 still means the result's i
    a, b = _f32(2, 3, 4), _f32(2, 3, 4)
    i = np.arange(4, dtype=np.float32).reshape(4, 1, 1)
    expected = (a + b).transpose(2, 1, 0) * i
    result = _compile("transposed_inputs_elementwise").add_transposed(a, b)
    np.testing.assert_array_equal(result, expected)


def test_pad_of_pad_runs() -> None:
    x = _f32(3, 4)
    expected = np.pad(np.pad(x, ((1, 0), (2, 1))), ((2, 1), (1, 1)))
    np.testing.assert_array_equal(_compile("pad_of_pad").pad_twice(x), expected)


def test_reference_transpose_add_runs() -> None:
    # h_transpose_add: the square transpose is interchanged, then fuses into the add as before
    source = (REFERENCE / "programs" / "h_transpose_add.mlir").read_text()
    module = ireelab.compile(source, device="local-sync")
    a, b = _f32(1024, 1024), _f32(1024, 1024)
    np.testing.assert_array_equal(module.transpose_add(a, b), a.T + b)
