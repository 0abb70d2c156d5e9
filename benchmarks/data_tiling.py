"""Matmuls with and without `--iree-opt-data-tiling`, ireelab and the real IREE side by side.

    python benchmarks/data_tiling.py [--sizes 256,512,1024] [--repeat 10]

For each square f32 matmul (a zero-filled `linalg.matmul`), five contenders measured in one run
with `run.py`'s interleaved turns: ireelab default, ireelab with data tiling (pack / mmt4d /
unpack as `iree_uk_pack` / `iree_uk_mmt4d` / `iree_uk_unpack`), IREE 3.13 default, IREE with
`--iree-opt-data-tiling` and with it plus `--iree-llvmcpu-enable-ukernels=all` (all
`--iree-llvmcpu-target-cpu=host`, local-task). Prints ms per call, GFLOP/s and each
ireelab figure's ratio to IREE's with the same flags (data tiling: also to the faster of IREE's
two data-tiled builds). Timings only: never a pass/fail test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from run import side_by_side_ms  # noqa: E402

MATMUL = """
func.func @mm(%a: tensor<NxNxf32>, %b: tensor<NxNxf32>) -> tensor<NxNxf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<NxNxf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<NxNxf32>) -> tensor<NxNxf32>
  %r = linalg.matmul ins(%a, %b : tensor<NxNxf32>, tensor<NxNxf32>)
      outs(%f : tensor<NxNxf32>) -> tensor<NxNxf32>
  return %r : tensor<NxNxf32>
}
"""


IREE_FLAGS = {
    "iree": [],
    "iree data-tiling": ["--iree-opt-data-tiling"],
    "iree dt+ukernels": ["--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"],
}


def iree_function(source: str, extra: list[str]):
    try:
        from iree import compiler, runtime
    except ImportError:
        return None
    flags = ["--iree-llvmcpu-target-cpu=host", *extra]
    vmfb = compiler.compile_str(source, target_backends=["llvm-cpu"], extra_args=flags)
    ctx = runtime.SystemContext(config=runtime.Config("local-task"))
    ctx.add_vm_module(runtime.VmModule.copy_buffer(ctx.instance, vmfb))
    return ctx.modules.module.mm


def contenders(n: int) -> dict:
    import ireelab

    source = MATMUL.replace("NxN", f"{n}x{n}")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    runs = {
        "ireelab": ireelab.compile(source).mm,
        "ireelab data-tiling": ireelab.compile(source, data_tiling=True).mm,
    }
    for name, extra in IREE_FLAGS.items():
        fn = iree_function(source, extra)
        if fn is not None:
            runs[name] = fn
    expected = a @ b
    for name, fn in runs.items():
        result = np.asarray(fn(a, b))
        if not np.allclose(result, expected, rtol=1e-3, atol=1e-2):
            raise SystemExit(f"{name}: wrong result for n={n}")
    return {name: (lambda fn=fn: fn(a, b)) for name, fn in runs.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="256,512,1024")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    print(f"{'n':>6} {'contender':<22} {'ms':>9} {'GFLOP/s':>8} {'vs IREE same flags':>30}")
    for n in (int(s) for s in args.sizes.split(",")):
        times = side_by_side_ms(contenders(n), args.repeat)
        for name, ms in times.items():
            ratio = ""
            peer = name.replace("ireelab", "iree")
            if name.startswith("ireelab") and peer in times:
                ratio = f"{ms / times[peer]:.2f}x"
            best = [times[k] for k in ("iree data-tiling", "iree dt+ukernels") if k in times]
            if name == "ireelab data-tiling" and best:
                ratio += f" ({ms / min(best):.2f}x best)"
            gflops = 2 * n**3 / (ms * 1e-3) / 1e9
            print(f"{n:>6} {name:<22} {ms:9.2f} {gflops:8.1f} {ratio:>30}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
