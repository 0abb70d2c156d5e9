"""`tensor.pad` to a `?`-sized result, and of a `?`-sized source, as IREE carries them.

ONNX's CenterCropPad pads by amounts computed on the host to `tensor<3x?x?xf32>`, then slices
the padded tensor. iree-compile makes the pad a `flow.tensor.splat` at the padded sizes
(source size + low + high, host arithmetic) and a *slow_memcpy* dispatch that writes the
source into it in place; a slice of the `?`-sized result is a copy dispatch of its own. One
module serves every input size and every padding amount. (IREE computes the offsets inside
its copy kernels from the pads tensor it binds; ireelab passes the offsets the host read as
operands, so its workloads hold them too.)
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"

PADS = [(0, 0, 0, 0), (1, 2, 3, 4), (0, 3, 2, 0), (7, 0, 0, 70)]
"""(low0, low1, high0, high1): none, all four, one side each, and past a 64-wide tile."""

SHAPES = [(1, 1), (3, 5), (4, 7), (65, 3)]
"""Sizes of the `?`-sized input: 1, small, and across a tile."""


def _pad_reference(x: np.ndarray, pads, value: float) -> np.ndarray:
    lo0, lo1, hi0, hi1 = pads
    return np.pad(x, ((lo0, hi0), (lo1, hi1)), constant_values=np.float32(value))


def _crop(padded_shape, pads) -> tuple[int, int, int, int]:
    """Offsets and sizes of a crop inside the padded tensor (depending on both)."""
    rows, cols = padded_shape
    o0, o1 = min(pads[0], rows - 1), min(pads[3] % 3, cols - 1)
    return o0, o1, rows - o0, max(1, (cols - o1) // 2)


@pytest.fixture(scope="module")
def pad_module():
    return ireelab.compile(str(PROGRAMS / "pad_to_read_sizes.mlir"))


@pytest.fixture(scope="module")
def crop_module():
    return ireelab.compile(str(PROGRAMS / "pad_and_crop_dxd.mlir"))


def _crop_case(x: np.ndarray, pads):
    padded = _pad_reference(x, pads, 0.5)
    o0, o1, n0, n1 = _crop(padded.shape, pads)
    args = (x, np.array(pads, np.int64), np.array([o0, o1, n0, n1], np.int64))
    return args, padded[o0 : o0 + n0, o1 : o1 + n1]


def test_pad_to_sizes_read_from_the_input(pad_module):
    x = np.arange(15, dtype=np.float32).reshape(3, 5) + np.float32(1)
    for pads in PADS:
        got = pad_module.pad(x, np.array(pads, np.int64))
        np.testing.assert_array_equal(got, _pad_reference(x, pads, -2.5))


def test_constant_pad_of_a_dynamic_input_at_every_size():
    module = ireelab.compile(str(PROGRAMS / "pad_rows_dx4.mlir"))
    for rows in (1, 3, 64, 130):
        x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4)
        np.testing.assert_array_equal(
            module.pad(x), np.pad(x, ((1, 2), (0, 2)), constant_values=np.float32(-2.5))
        )


def test_pad_of_a_dynamic_input_then_crop_at_every_size(crop_module):
    rng = np.random.default_rng(5)
    for shape in SHAPES:
        x = rng.standard_normal(shape).astype(np.float32)
        for pads in PADS:
            args, want = _crop_case(x, pads)
            got = crop_module.pad_crop(*args)
            assert got.shape == want.shape
            np.testing.assert_array_equal(got, want)


def test_the_pad_is_a_splat_at_host_sizes_and_a_copy():
    ir = ireelab.compile(str(PROGRAMS / "pad_and_crop_dxd.mlir"), compile_to="flow").ir()
    splat = re.search(r"flow\.tensor\.splat %\w+ : tensor<\?x\?xf32>\{(%\w+), (%\w+)\}", ir)
    assert splat is not None
    # the padded rows: the input's rows (a buffer view dim) + low + high, on the host
    rows = splat.group(1)
    grown = re.search(rf"{rows} = arith\.addi (%\w+), %\w+ : index", ir).group(1)
    assert re.search(rf"{grown} = arith\.addi %\w+, %\w+ : index", ir)
    exports = re.findall(r"flow\.executable\.export public @(\w+)", ir)
    assert exports == ["pad_crop_dispatch_0_slow_memcpy", "pad_crop_dispatch_1_slow_memcpy"]
    # the source is written in place at the run-time low padding, its whole `?` size
    store = (
        r"dispatch\.tensor\.store %\w+, %\w+, offsets = \[%\w+, %\w+\], "
        r"sizes = \[%\w+, %\w+\], strides = \[1, 1\] : tensor<\?x\?xf32> -> "
        r"!iree_tensor_ext\.dispatch\.tensor<readwrite:tensor<\?x\?xf32>>"
    )
    assert re.search(store, ir)


# ---- against the real IREE -----------------------------------------------------------------

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", ["pad_to_read_sizes", "pad_and_crop_dxd", "pad_rows_dx4"])
def test_dispatches_match_iree(name):
    """The same export names, dispatches and splats as iree-compile."""
    import ireelab.iree

    path = str(PROGRAMS / f"{name}.mlir")
    iree_ir = ireelab.iree.compile(path, compile_to="flow", trace=False).ir()
    ours = ireelab.compile(path, compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, iree_ir)
    assert ours.count("flow.dispatch @") == iree_ir.count("flow.dispatch @")
    assert ours.count("flow.tensor.splat") == iree_ir.count("flow.tensor.splat") == 1
    if name == "pad_rows_dx4":  # no offsets read at run time: the workloads are IREE's
        workload = r"flow\.dispatch @[\w:@]+\[([^\]]*)\]"
        assert len(re.search(workload, ours).group(1).split(",")) == 2
        assert len(re.search(workload, iree_ir).group(1).split(",")) == 2


@pytest.mark.iree
@needs_iree
def test_results_match_iree(crop_module):
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAMS / "pad_and_crop_dxd.mlir"), trace=False)
    rng = np.random.default_rng(9)
    for shape in SHAPES[:3]:
        x = rng.standard_normal(shape).astype(np.float32)
        for pads in PADS:
            args, _ = _crop_case(x, pads)
            want = theirs.invoke_all("pad_crop", *args)
            want = want[0] if isinstance(want, tuple | list) else want
            np.testing.assert_array_equal(crop_module.pad_crop(*args), want)


def test_a_cast_names_the_static_size_it_makes_dynamic():
    """`tensor.cast` of `?x4` to `3x?`: the result's `?` is the constant 4 (regression: its
    sizes were 'not known at this dispatch')."""
    module = ireelab.compile(str(PROGRAMS / "crop_cast_insert.mlir"))
    x = np.arange(24, dtype=np.float32).reshape(6, 4) + np.float32(1)
    for offset, column in ((0, 0), (3, 3), (2, 1)):
        want = np.zeros((3, 7), np.float32)
        want[:, column : column + 4] = x[offset : offset + 3]
        got = module.f(x, np.array([offset, 3, 4, column], np.int64))
        np.testing.assert_array_equal(got, want)


WINDOW = """
func.func @f(%a: tensor<?x8xf32>) -> tensor<2x4xf32> {
  %s = tensor.extract_slice %a[1, 2] [2, 4] [1, 1] : tensor<?x8xf32> to tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}
"""


def test_a_window_of_a_dynamic_tensor_at_constant_offsets():
    """Not one contiguous run: a copy dispatch reading the `?`-row binding (as IREE forms it)."""
    module = ireelab.compile(WINDOW)
    for rows in (3, 5, 70):
        a = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8)
        np.testing.assert_array_equal(module.f(a), a[1:3, 2:6])
    flow = ireelab.compile(WINDOW, compile_to="flow").ir()
    assert re.findall(r"flow\.executable\.export public @(\w+)", flow) == [
        "f_dispatch_0_slow_memcpy"
    ]
