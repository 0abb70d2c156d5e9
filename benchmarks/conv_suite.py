"""Convolutions of a CNN against the real IREE, side by side: SqueezeNet 1.1's layer shapes.

    python benchmarks/conv_suite.py                    # every layer, both layouts
    python benchmarks/conv_suite.py --only nchw --repeat 20
    python benchmarks/conv_suite.py --device local-sync   # both runtimes single-threaded

Each program is one convolution with its bias and ReLU (the epilogue IREE and ireelab fuse
into the convolution's dispatch), on inputs already padded, as SqueezeNet 1.1 runs them on a
1x3x224x224 image: the stride-2 first convolution, the fire modules' 1x1 squeeze and 1x1 /
3x3 expand convolutions (16..512 channels), the final 1x1 classifier, plus MobileNet-style
depthwise 3x3 convolutions. Both layouts: NCHW (what ONNX models bring) and NHWC. Timed with
`run.py`'s interleaved turns (`side_by_side_ms`); nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import iree_runner, side_by_side_ms  # noqa: E402

import ireelab  # noqa: E402

# name: (input channels, output channels, kernel, stride, output height = width)
LAYERS = {
    "conv1_3to64_k3s2": (3, 64, 3, 2, 111),
    "fire2_squeeze_64to16_k1": (64, 16, 1, 1, 55),
    "fire2_expand_16to64_k3": (16, 64, 3, 1, 55),
    "fire4_expand_32to128_k1": (32, 128, 1, 1, 27),
    "fire5_squeeze_256to32_k1": (256, 32, 1, 1, 27),
    "fire8_expand_64to256_k3": (64, 256, 3, 1, 13),
    "conv10_512to1000_k1": (512, 1000, 1, 1, 13),
}
DEPTHWISE = {
    "dw_32_k3_112": (32, 3, 1, 112),
    "dw_128_k3s2_56": (128, 3, 2, 28),
    "dw_512_k3_14": (512, 3, 1, 14),
}


def _t(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def conv_program(layout: str, c: int, f: int, k: int, s: int, o: int) -> tuple[str, list]:
    i = (o - 1) * s + k
    if layout == "nhwc":
        image, filt, out, bias_dim = (1, i, i, c), (k, k, c, f), (1, o, o, f), "d3"
        op = "conv_2d_nhwc_hwcf"
    else:
        image, filt, out, bias_dim = (1, c, i, i), (f, c, k, k), (1, f, o, o), "d1"
        op = "conv_2d_nchw_fchw"
    return _epilogue(op, image, filt, out, f, bias_dim, s), [image, filt, (f,)]


def depthwise_program(c: int, k: int, s: int, o: int) -> tuple[str, list]:
    i = (o - 1) * s + k
    image, filt, out = (1, i, i, c), (k, k, c), (1, o, o, c)
    return _epilogue("depthwise_conv_2d_nhwc_hwc", image, filt, out, c, "d3", s), [
        image,
        filt,
        (c,),
    ]


def _epilogue(op, image, filt, out, f, bias_dim, s) -> str:
    ident = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    par = '["parallel", "parallel", "parallel", "parallel"]'
    return f"""func.func @conv(%x: {_t(image)}, %w: {_t(filt)}, %b: tensor<{f}xf32>) -> {_t(out)} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {_t(out)}
  %z = linalg.fill ins(%zero : f32) outs(%e : {_t(out)}) -> {_t(out)}
  %c = linalg.{op} {{dilations = dense<1> : tensor<2xi64>, strides = dense<{s}> : tensor<2xi64>}} ins(%x, %w : {_t(image)}, {_t(filt)}) outs(%z : {_t(out)}) -> {_t(out)}
  %r = linalg.generic {{indexing_maps = [{ident}, affine_map<(d0, d1, d2, d3) -> ({bias_dim})>, {ident}], iterator_types = {par}}} ins(%c, %b : {_t(out)}, tensor<{f}xf32>) outs(%e : {_t(out)}) {{
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %sum = arith.addf %a, %bb : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }} -> {_t(out)}
  return %r : {_t(out)}
}}
"""


def programs() -> dict[str, tuple[str, list, int]]:
    """name -> (source, input shapes, multiply-accumulates)."""
    table = {}
    for layout in ("nchw", "nhwc"):
        for name, (c, f, k, s, o) in LAYERS.items():
            source, shapes = conv_program(layout, c, f, k, s, o)
            table[f"{layout}_{name}"] = (source, shapes, o * o * f * c * k * k)
    for name, (c, k, s, o) in DEPTHWISE.items():
        source, shapes = depthwise_program(c, k, s, o)
        table[f"nhwc_{name}"] = (source, shapes, o * o * c * k * k)
    return table


def measure(source: str, shapes: list, repeat: int, device: str = "local-task") -> dict:
    """Median ms per call of ireelab and IREE (when installed), after checking they agree."""
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(s, dtype=np.float32) for s in shapes]
    fn = ireelab.compile(source, device=device).conv
    contenders = {"ireelab": lambda: fn(*inputs)}
    iree_fn = iree_runner(source, "conv", device)
    if iree_fn is not None:
        ours, theirs = np.asarray(fn(*inputs)), np.asarray(iree_fn(*inputs))
        np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-3)
        contenders["iree"] = lambda: iree_fn(*inputs)
    return side_by_side_ms(contenders, repeat, min_seconds=0.5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run programs whose name contains this")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--device", default="local-task", choices=("local-task", "local-sync"))
    args = parser.parse_args(argv)
    ratios = []
    print("| program | ireelab ms | IREE ms | /IREE | GFLOP/s |")
    print("|---|---|---|---|---|")
    for name, (source, shapes, macs) in programs().items():
        if args.only not in name:
            continue
        times = measure(source, shapes, args.repeat, args.device)
        ratio = times["ireelab"] / times["iree"] if "iree" in times else float("nan")
        ratios.append(ratio)
        gflops = 2 * macs / (times["ireelab"] * 1e-3) / 1e9
        iree_ms = f"{times['iree']:.4g}" if "iree" in times else "-"
        row = f"| {name} | {times['ireelab']:.4g} | {iree_ms} | {ratio:.2f} | {gflops:.1f} |"
        print(row, flush=True)
    finite = [r for r in ratios if r == r]
    if finite:
        geo = float(np.exp(np.mean(np.log(finite))))
        worst, median = max(finite), statistics.median(finite)
        print(
            f"\n- geometric mean ireelab / IREE: {geo:.2f} (worst {worst:.2f}, median {median:.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
