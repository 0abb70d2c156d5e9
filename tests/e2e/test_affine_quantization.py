"""`iree_linalg_ext.quantize_affine` / `dequantize_affine` (ONNX's QuantizeLinear /
DequantizeLinear as IREE's importer gives them) end to end: exact against numpy's formulas
(integers equal; floats at rtol 1e-6), per tensor and per channel, signed and unsigned, 8 and
16 bits, rounding half to even and clamping at both bounds; dispatch names and results as
iree-compile 3.13 gives them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "affine_quantization.mlir"
RNG = np.random.default_rng(17)


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(str(PROGRAM))


def _u8(values) -> np.ndarray:
    """Unsigned bytes as the signless i8 the program takes."""
    return np.asarray(values, dtype=np.uint8).view(np.int8)


def _quantize(x, scale, zp, low, high) -> np.ndarray:
    return np.clip(np.rint(x / scale) + zp, low, high)


def _inputs():
    x8 = _u8([0, 1, 127, 128, 129, 200, 254, 255])
    per_channel = _u8(RNG.integers(0, 256, size=(1, 3, 4)))
    x16 = np.array([-32768, -1, 0, 1, 7, 1000, 32766, 32767], dtype=np.int16)
    # halves round to even; the last two clamp at the bounds
    xf = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 10.25, 1e6, -1e6], dtype=np.float32)
    xq = RNG.standard_normal((2, 3)).astype(np.float32) * 40
    xq[0, 0], xq[1, 2] = 1e4, -1e4
    return {
        "dequant_u8": (x8, np.array(0.5, np.float32), _u8(200)),
        "dequant_axis": (
            per_channel,
            np.array([0.25, 2.0, 0.1], np.float32),
            _u8([0, 128, 255]),
        ),
        "dequant_i16": (x16, np.array(0.125, np.float32), np.array(-3, np.int16)),
        "quant_i16": (xf, np.array(1.0, np.float32), np.array(4, np.int16)),
        "quant_u8_axis": (xq, np.array([0.5, 1.0, 3.0], np.float32), _u8([0, 128, 250])),
    }


def _expected(name, args) -> np.ndarray:
    x, scale, zp = args
    if name == "dequant_u8":
        return (x.view(np.uint8).astype(np.int32) - 200).astype(np.float32) * scale
    if name == "dequant_axis":
        diff = x.view(np.uint8).astype(np.int32) - zp.view(np.uint8).astype(np.int32)[:, None]
        return diff.astype(np.float32) * scale[:, None]
    if name == "dequant_i16":
        return (x.astype(np.int32) - int(zp)).astype(np.float32) * scale
    if name == "quant_i16":
        return _quantize(x, scale, int(zp), -32768, 32767).astype(np.int16)
    zero = zp.view(np.uint8).astype(np.float32)
    return _quantize(x, scale, zero, 0, 255).astype(np.uint8).view(np.int8)


@pytest.mark.parametrize("name", sorted(_inputs()))
def test_matches_numpy(module, name: str) -> None:
    args = _inputs()[name]
    got = getattr(module, name)(*args)
    want = _expected(name, args)
    assert got.dtype == want.dtype
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=0)
    else:
        np.testing.assert_array_equal(got, want)


def test_decomposed_into_one_elementwise_dispatch_each() -> None:
    flow = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    assert "quantize_affine" not in flow
    exports = re.findall(r"flow\.executable\.export public @(\w+)", flow)
    assert exports == [
        "dequant_u8_dispatch_0_elementwise_8_i8xf32xi64xf32",
        "dequant_axis_dispatch_0_elementwise_3x4_i8xf32xi8xf32",
        "dequant_i16_dispatch_0_elementwise_8_i16xf32xi64xf32",
        "quant_i16_dispatch_0_elementwise_8_f32xf32xi64xi16",
        "quant_u8_axis_dispatch_0_elementwise_2x3_f32xf32xi8xi8",
    ]


def test_unrepresentable_range_is_a_located_error() -> None:
    from ireelab.diagnostics import CompileError

    source = PROGRAM.read_text().replace("storage_unsigned, zp_unsigned", "zp_unsigned")
    with pytest.raises(CompileError) as err:
        ireelab.compile(source)
    message = str(err.value)
    assert "quantization range [0, 255] is not representable in signed 'i8'" in message
    line = (
        PROGRAM.read_text()
        .splitlines()
        .index(next(t for t in PROGRAM.read_text().splitlines() if "storage_unsigned" in t))
    )
    assert f":{line + 1}:" in message


needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.mark.iree
@needs_iree
def test_dispatch_names_and_results_match_iree(module) -> None:
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM), compile_to="flow", trace=False).ir()
    ours = ireelab.compile(str(PROGRAM), compile_to="flow").ir()
    exports = r"flow\.executable\.export public @(\w+)"
    assert re.findall(exports, ours) == re.findall(exports, theirs)
    real = ireelab.iree.compile(str(PROGRAM), trace=False)
    for name, args in _inputs().items():
        want = real.invoke_all(name, *args)[0]
        np.testing.assert_array_equal(getattr(module, name)(*args), want)


def test_host_zero_extension_of_a_byte_widens_inside_the_register() -> None:
    # the u8 zero point is loaded into an i32 register; arith.extui i8 -> i64 clears its high
    # bits first (vm.ext.i8.i32.u, as iree-compile emits), so 200 stays 200, not -56
    vm = ireelab.compile(str(PROGRAM), compile_to="vm").ir()
    assert re.search(r"vm\.ext\.i8\.i32\.u %\w+ : i32 -> i32", vm)
    assert re.search(r"vm\.ext\.i16\.i32\.s %\w+ : i32 -> i32", vm)
