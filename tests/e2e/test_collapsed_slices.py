"""End to end: slices folded into dispatch loads after CollapseDimensions merged the
dimensions they read contiguously (IREE 3.13's rule for `tensor.extract_slice`: leading unit
dims, the next dim, then dims read whole). Each program is checked twice: the flow stage holds
the dispatch IREE prints for it (export name, the load's offsets / sizes over the collapsed
binding), and the compiled module run on the HAL runtime matches numpy (copies and negation
exactly; `math.exp` and sums with a tolerance)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

PROGRAMS = Path(__file__).parent.parent / "flow" / "programs"
SLICE_PROGRAMS = Path(__file__).parent / "slice_programs"
RNG = np.random.default_rng(11)


@dataclass(frozen=True)
class Case:
    path: Path
    function: str
    shapes: tuple[tuple[int, ...], ...]
    reference: Callable[..., tuple[np.ndarray, ...]]
    export: str
    """The dispatch's export name, as `iree-compile --compile-to=flow` prints it."""
    load: str
    """The dispatch's read of the sliced argument: offsets, sizes and binding type."""
    exact: bool = False


def _pad_rows(x: np.ndarray) -> np.ndarray:
    return np.pad(x, ((1, 1), (0, 0), (0, 0)), constant_values=np.float32(-1.0))


def _updated(a: np.ndarray) -> np.ndarray:
    out = a.copy()
    out[5:7] = np.exp(a[2:4])
    return out


CASES = [
    Case(
        SLICE_PROGRAMS / "slice_returned_and_read_by_dispatch.mlir",
        "slice_ew",
        ((8, 16),),
        lambda a: (a[2:4], np.exp(a[2:4])),
        "slice_ew_dispatch_0_elementwise_32_f32",
        "offsets = [32], sizes = [32], strides = [1] : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<128xf32>>",
    ),
    Case(
        PROGRAMS / "collapse_slice_rows_updated.mlir",
        "ru",
        ((8, 16),),
        lambda a: (_updated(a),),
        "ru_dispatch_0_elementwise_32_f32",
        "offsets = [32], sizes = [32], strides = [1] : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<128xf32>>",
    ),
    Case(
        PROGRAMS / "collapse_slice_3d_inner_dims.mlir",
        "s3",
        ((4, 8, 16),),
        lambda a: (np.exp(a[1:3, 2:5, :]),),
        "s3_dispatch_0_elementwise_2x48_f32",
        "offsets = [1, 32], sizes = [2, 48], strides = [1, 1] : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<4x128xf32>>",
    ),
    Case(
        PROGRAMS / "collapse_slice_3d_rows_of_cols.mlir",
        "rc",
        ((4, 6, 8),),
        lambda a: (-a[1:3, :, 2:6],),
        "rc_dispatch_0_elementwise_12x4_f32",
        "offsets = [6, 2], sizes = [12, 4], strides = [1, 1] : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<24x8xf32>>",
        exact=True,
    ),
    Case(
        PROGRAMS / "collapse_slice_into_reduction.mlir",
        "r",
        ((4, 8, 16),),
        lambda a: (a[1:3].sum(axis=2),),
        "r_dispatch_0_reduction_16x16_f32",
        "offsets = [8, 0], sizes = [16, 16], strides = [1, 1] : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<32x16xf32>>",
    ),
    # Not collapsed: the dispatch returns a pad's insert_slice, which CollapseDimensions
    # does not collapse through (its store writes at an offset of the padded result).
    Case(
        PROGRAMS / "collapse_slice_then_pad_3d.mlir",
        "po",
        ((4, 3, 8),),
        lambda a: (_pad_rows(np.exp(a[1:3])),),
        "po_dispatch_0_elementwise_2x3x8_f32",
        "offsets = [1, 0, 0], sizes = [2, 3, 8], strides = [1, 1, 1] : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<4x3x8xf32>>",
    ),
    # Not collapsed: a column slice is not contiguous over its two dims.
    Case(
        PROGRAMS / "extract_slice_into_elementwise.mlir",
        "slice_ew",
        ((8, 16),),
        lambda a: (np.exp(a[2:6, 4:12]),),
        "slice_ew_dispatch_0_elementwise_4x8_f32",
        "offsets = [2, 4], sizes = [4, 8], strides = [1, 1] : "
        "!iree_tensor_ext.dispatch.tensor<readonly:tensor<8x16xf32>>",
    ),
]


def _flow_ir(module) -> str:
    (record,) = module.trace.find("AnnotateDispatchesPass")
    return record.ir


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.path.stem)
def test_collapsed_dispatch_is_iree_s_and_runs_like_numpy(case: Case, compile_cached) -> None:
    module = compile_cached(case.path.read_text())
    flow_ir = _flow_ir(module)
    assert f"flow.executable.export public @{case.export} " in flow_ir
    assert f"dispatch.tensor.load %0, {case.load}" in flow_ir.replace("\n", " ")

    args = [RNG.standard_normal(s).astype(np.float32) for s in case.shapes]
    got = getattr(module, case.function)(*args)
    got = got if isinstance(got, tuple) else (got,)
    want = case.reference(*args)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape
        if case.exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
