"""ONNX's DFT / STFT node tests and `iree_linalg_ext.fft`.

Of the twelve DFT / STFT node tests, only `test_stft_with_window` gets through IREE 3.13's
importer and input conversion (the others stop in IREE's torch lowering: `onnx.DFT` of
opset 19 and `torch.aten.fft_fft` on complex tensors are not legalized, `test_stft` has an
unconverted `torch.constant.bool`), and the real IREE passes it. Its input-phase program
computes each 16-point window's FFT as a bit-reversal gather and four `iree_linalg_ext.fft`
stages with twiddle tables; the tests below run that chain, as IREE wrote it, in ireelab
against numpy's FFT. The whole program does not compile yet: its `complex<f32>` tensors are
carried, but it loops over the windows with `scf.for` in host code, slicing the signal at an
offset computed from the loop's induction variable, which ireelab refuses with a located
error."""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from frontend_support import needs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

NAME = "test_stft_with_window"

TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}
"""f32 butterflies against numpy's f64 FFT of inputs in [-1, 1]."""


def stft_with_window_model():
    """The node test's model, built here as ONNX's test builds it (loading the whole node
    corpus to pick one costs ~9 s): STFT of a 1x128x1 signal with a 16-point window, its
    frame step an input, onesided: 1x15x9x2."""
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("STFT", ["signal", "frame_step", "window"], ["output"])],
        NAME,
        [
            helper.make_tensor_value_info("signal", TensorProto.FLOAT, [1, 128, 1]),
            helper.make_tensor_value_info("frame_step", TensorProto.INT64, []),
            helper.make_tensor_value_info("window", TensorProto.FLOAT, [16]),
        ],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 15, 9, 2])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def input_program() -> str:
    """IREE's input-phase program for the node test (importer + `--compile-to=input`)."""
    import onnx_node_tests

    with tempfile.TemporaryDirectory(prefix="onnx-fft-") as folder:
        source, problem = onnx_node_tests.front_end(stft_with_window_model(), Path(folder))
    assert source is not None, problem
    return source


_FFT = re.compile(
    r"(%\w+):2 = iree_linalg_ext\.fft ins\((%\w+), (%\w+), (%\w+) : index, "
    r"tensor<(\d+)xf32>, tensor<\d+xf32>\) outs\((%[\w#]+), (%[\w#]+) : "
)


def fft_chain(source: str) -> tuple[str, int]:
    """IREE's fft stages of `source`, with the constants they read, as a function
    `@chain(real, imag) -> (real, imag)` over the first stage's operands; and the length."""
    stages = list(_FFT.finditer(source))
    assert stages, "no iree_linalg_ext.fft in IREE's input-phase program"
    used = {name for m in stages for name in m.group(2, 3, 4)}
    constants = [
        line.strip()
        for line in source.splitlines()
        if re.match(r"\s*(%\w+) = arith\.constant", line) and line.split()[0] in used
    ]
    first_real, first_imag = stages[0].group(6, 7)
    t = re.search(rf"outs\({re.escape(first_real)}, [^:]+: (tensor<[^>]+>)", source).group(1)
    n = int(re.search(r"x(\d+)xf32>$", t).group(1))
    body = [line.strip() for line in source.splitlines() if "iree_linalg_ext.fft" in line]
    last = stages[-1].group(1)
    text = "\n  ".join(
        [
            f"func.func @chain(%re: {t}, %im: {t}) -> ({t}, {t}) {{",
            *constants,
            *body,
            f"return {last}#0, {last}#1 : {t}, {t}",
        ]
    )
    text = text.replace(f"outs({first_real}, {first_imag}", "outs(%re, %im")
    return text + "\n}\n", n


@needs("onnx", "iree.compiler")
@pytest.mark.iree
def test_iree_s_fft_stages_match_numpy(input_program: str) -> None:
    import ireelab

    chain, n = fft_chain(input_program)
    assert chain.count("iree_linalg_ext.fft") == n.bit_length() - 1
    rng = np.random.default_rng(16)
    x = rng.uniform(-1, 1, (1, n)) + 1j * rng.uniform(-1, 1, (1, n))
    x = x.astype(np.complex64)
    bits = n.bit_length() - 1
    reverse = [int(f"{i:0{bits}b}"[::-1], 2) for i in range(n)]
    module = ireelab.compile(chain)
    real, imag = module.chain(
        np.ascontiguousarray(x.real[:, reverse]), np.ascontiguousarray(x.imag[:, reverse])
    )
    expected = np.fft.fft(x.astype(np.complex128), axis=-1)
    np.testing.assert_allclose(real, expected.real, **TOLERANCE)
    np.testing.assert_allclose(imag, expected.imag, **TOLERANCE)


@needs("onnx", "iree.compiler")
@pytest.mark.iree
def test_the_whole_stft_carries_its_host_loop_to_the_vm(input_program: str) -> None:
    """Its complex tensors are carried (tests/e2e/test_complex_numbers.py), the window's slice
    at the host `scf.for`'s induction variable through Flow, and the loop itself through
    Stream, HAL and the VM (tests/dynamic/test_host_loops.py): the VM function branches back
    over the frames. Its results against ONNX and IREE: test_onnx_node_misses.py's
    test_stft_with_window."""
    import ireelab

    assert "scf.for" in input_program
    vm = ireelab.compile(input_program, compile_to="vm").ir()
    assert "scf.for" not in vm
    assert re.search(r"vm\.cond_br %\w+, \^bb\d+", vm)
