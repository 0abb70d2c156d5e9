"""`iree_linalg_ext.fft` end to end: a whole FFT as IREE's input conversion writes one (a
bit-reversal gather, then one `fft` op per radix-2 stage, each its own dispatch named as
`iree-compile` names it), compared with numpy's FFT and, where installed, the real IREE."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

import ireelab

RNG = np.random.default_rng(15)

TOLERANCE = {"rtol": 1e-5, "atol": 2e-5}
"""f32 butterflies (log2(n) rounding steps) against numpy's f64 FFT of inputs in [-1, 1]."""


def _dense(values: np.ndarray, element: str) -> str:
    body = ", ".join(repr(float(v)) if element.startswith("f") else str(int(v)) for v in values)
    return f"dense<[{body}]> : tensor<{len(values)}x{element}>"


def fft_program(batch: int, n: int, coefficients: bool) -> str:
    """`@fft(x: real BxN) -> (re, im)`: bit-reverse the input into (re, im = 0), then the
    log2(n) stages, with twiddle tables as IREE's importer passes them or without."""
    bits = n.bit_length() - 1
    reverse = [int(f"{i:0{bits}b}"[::-1], 2) for i in range(n)]
    t = f"tensor<{batch}x{n}xf32>"
    lines = [
        f"func.func @fft(%x: {t}) -> ({t}, {t}) {{",
        f"  %perm = arith.constant {_dense(np.array(reverse), 'i64')}",
        "  %zero = arith.constant 0.0 : f32",
        f"  %e = tensor.empty() : {t}",
        "  %in:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>,"
        " affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],"
        ' iterator_types = ["parallel", "parallel"]}'
        f" ins(%perm : tensor<{n}xi64>) outs(%e, %e : {t}, {t}) {{",
        "  ^bb0(%p: i64, %o0: f32, %o1: f32):",
        "    %b = linalg.index 0 : index",
        "    %j = arith.index_cast %p : i64 to index",
        f"    %v = tensor.extract %x[%b, %j] : {t}",
        "    linalg.yield %v, %zero : f32, f32",
        f"  }} -> ({t}, {t})",
    ]
    real, imag = "%in#0", "%in#1"
    for stage in range(1, bits + 1):
        half = 1 << (stage - 1)
        lines.append(f"  %s{stage} = arith.constant {stage} : index")
        ins, types = f"%s{stage}", "index"
        if coefficients:
            w = np.exp(-2j * np.pi * np.arange(half) / (2 * half)).astype(np.complex64)
            lines.append(f"  %wr{stage} = arith.constant {_dense(w.real, 'f32')}")
            lines.append(f"  %wi{stage} = arith.constant {_dense(w.imag, 'f32')}")
            ins += f", %wr{stage}, %wi{stage}"
            types += f", tensor<{half}xf32>, tensor<{half}xf32>"
        lines.append(
            f"  %f{stage}:2 = iree_linalg_ext.fft ins({ins} : {types})"
            f" outs({real}, {imag} : {t}, {t}) : {t}, {t}"
        )
        real, imag = f"%f{stage}#0", f"%f{stage}#1"
    lines += [f"  return {real}, {imag} : {t}, {t}", "}"]
    return "\n".join(lines) + "\n"


CASES = {
    "coefficients_4x16": (4, 16, True),
    "computed_twiddles_3x8": (3, 8, False),
    "coefficients_1x64": (1, 64, True),
}

EXPORT = re.compile(r"flow\.executable\.export public @(\w+)")


@pytest.mark.parametrize("case", list(CASES))
def test_matches_numpy_fft(compile_cached, case: str) -> None:
    batch, n, coefficients = CASES[case]
    x = RNG.uniform(-1, 1, (batch, n)).astype(np.float32)
    real, imag = compile_cached(fft_program(batch, n, coefficients)).fft(x)
    expected = np.fft.fft(x.astype(np.float64), axis=-1)
    np.testing.assert_allclose(real, expected.real, **TOLERANCE)
    np.testing.assert_allclose(imag, expected.imag, **TOLERANCE)


def test_one_dispatch_per_stage_with_iree_names() -> None:
    flow = ireelab.compile(fft_program(4, 16, True), compile_to="flow").ir()
    names = EXPORT.findall(flow)
    assert names[1:] == [f"fft_dispatch_{i}_fft_4x16xf32" for i in range(1, 5)]
    # each stage's twiddle table is a small constant, cloned into its dispatch as IREE does
    assert flow.count("iree_linalg_ext.fft ins(%") == 4


def test_a_stage_lowers_to_loops_in_the_kernel() -> None:
    module = ireelab.compile(fft_program(1, 8, False), compile_to="executable-targets")
    ir = module.ir()
    assert "iree_linalg_ext.fft" not in ir
    assert "math.cos" in ir and "math.sin" in ir


def test_length_not_a_power_of_two_is_a_located_error() -> None:
    source = fft_program(2, 8, False).replace("2x8xf32", "2x6xf32").replace("8xi64", "6xi64")
    source = source.replace("dense<[0, 4, 2, 6, 1, 5, 3, 7]>", "dense<[0, 4, 2, 1, 5, 3]>")
    with pytest.raises(ireelab.CompileError) as err:
        ireelab.compile(source)
    assert "only powers of 2 are handled currently" in str(err.value)
    assert re.match(r"<input>:\d+:\d+: error:", str(err.value))


def test_one_coefficient_without_the_other_is_a_located_error() -> None:
    source = fft_program(1, 4, True).replace(
        ", %wi2 : index, tensor<2xf32>, tensor<2xf32>", " : index, tensor<2xf32>"
    )
    with pytest.raises(ireelab.CompileError) as err:
        ireelab.compile(source)
    assert re.match(r"<input>:\d+:\d+: error:", str(err.value))


needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None or shutil.which("iree-opt") is None,
    reason="IREE (iree-compile, iree-opt) not installed",
)


@needs_iree
@pytest.mark.iree
@pytest.mark.parametrize("case", ["coefficients_4x16", "coefficients_1x64"])
def test_matches_the_real_iree(tmp_path, compile_cached, case: str) -> None:
    """With coefficients only: IREE 3.13 crashes tiling an `fft` without them (its
    `FftOp::getTiledImplementation` clones the op with null coefficient operands), and its
    importers always pass them."""
    from ireelab.iree import compile as iree_compile

    batch, n, coefficients = CASES[case]
    source = fft_program(batch, n, coefficients)
    x = RNG.uniform(-1, 1, (batch, n)).astype(np.float32)
    ours = compile_cached(source).fft(x)
    theirs = iree_compile(source, trace=False).fft(x)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, np.asarray(b), **TOLERANCE)
    path = tmp_path / "fft.mlir"
    path.write_text(source)
    iree = subprocess.run(
        ["iree-compile", "--compile-to=flow", str(path)], capture_output=True, text=True
    )
    assert iree.returncode == 0, iree.stderr
    theirs_names = [name.removeprefix("_") for name in EXPORT.findall(iree.stdout)]
    ours_flow = ireelab.compile(source, compile_to="flow").ir()
    assert EXPORT.findall(ours_flow) == theirs_names
    # and the real IREE reads ireelab's flow IR, fft ops included
    (tmp_path / "ours.mlir").write_text(ours_flow)
    opt = subprocess.run(["iree-opt", str(tmp_path / "ours.mlir")], capture_output=True, text=True)
    assert opt.returncode == 0, opt.stderr
    assert opt.stdout.count("iree_linalg_ext.fft") == ours_flow.count("iree_linalg_ext.fft")
