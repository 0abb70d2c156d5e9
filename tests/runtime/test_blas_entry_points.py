"""The GEMM micro-kernels' BLAS: numpy's bundled OpenBLAS (64-bit integers) where present, else
scipy's (32-bit integers); the kernels pass integers as 64-bit slots, so both must give the same
results. The fallback runs in a fresh process, because LLVM's symbol table is per process."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from ireelab.runtime.hal import executable_loader

MATMUL_BIAS = """
func.func @mm(%a: tensor<8x12xf32>, %b: tensor<12x6xf32>, %bias: tensor<6xf32>) -> tensor<8x6xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x12xf32>, tensor<12x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<8x6xf32>, tensor<6xf32>) outs(%e : tensor<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}
"""

SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    import ireelab
    from ireelab.runtime.hal import executable_loader

    real = executable_loader._library_symbols
    if sys.argv[1] == "scipy":
        executable_loader._library_symbols = (
            lambda pattern, names: None if pattern.startswith("numpy.libs") else real(pattern, names)
        )
    rng = np.random.default_rng(7)
    a, b, bias = (rng.standard_normal(s, dtype=np.float32) for s in [(8, 12), (12, 6), (6,)])
    result = ireelab.compile(sys.stdin.read()).mm(a, b, bias)
    expected = a.astype(np.float64) @ b.astype(np.float64) + bias
    print(float(np.max(np.abs(result - expected))))
    """
)


CHECK_THREADS = textwrap.dedent(
    """
    import sys
    import numpy as np
    import ireelab
    from ireelab.runtime.hal import executable_loader

    _, _, address = executable_loader._blas_entry_points()
    if address is None:
        print("none none")
        raise SystemExit
    import ctypes
    set_threads = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(address)

    def current():
        value = set_threads(1)
        set_threads(value)
        return value

    before = current()
    # 512 rows: four 128-row GEMM workgroups, run by both workers and the waiting caller
    source = sys.stdin.read().replace("tensor<8x", "tensor<512x")
    module = ireelab.compile(source, device="local-task")
    rng = np.random.default_rng(7)
    args = [rng.standard_normal(s, dtype=np.float32) for s in [(512, 12), (12, 6), (6,)]]
    for _ in range(50):
        module.mm(*args)
    print(before, current())
    """
)


def _max_error(which: str) -> float:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, which],
        input=MATMUL_BIAS,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return float(out.stdout.strip().splitlines()[-1])


def test_numpy_openblas_is_preferred_when_bundled() -> None:
    sgemm, dgemm, _threads = executable_loader._blas_entry_points()
    bundled = executable_loader._library_symbols(
        "numpy.libs/*openblas64*.so*", ("scipy_sgemm_64_", "scipy_dgemm_64_")
    )
    if bundled is not None:
        assert (sgemm, dgemm) == bundled
    assert sgemm and dgemm


def test_both_blas_libraries_compute_the_same_matmul() -> None:
    # f32 against an f64 reference: 12-term dot products of N(0, 1) values, 1e-4 is loose
    for which in ("numpy", "scipy"):
        assert _max_error(which) < 1e-4, which


def test_single_threaded_scope_restores_the_setting_after_overlapping_kernels() -> None:
    # Two kernels overlap on two threads; OpenBLAS's count is one process-wide value, so only
    # the last one out may restore it (each restoring what it saw would leave 1 for good).
    import threading

    from ireelab.runtime.hal.blas_threads import SingleThreadedBlas

    state = {"threads": 4}

    def set_threads(count: int) -> int:
        previous, state["threads"] = state["threads"], count
        return previous

    scope = SingleThreadedBlas(set_threads)
    inside, release = threading.Barrier(3), threading.Event()
    seen = []

    def kernel() -> None:
        with scope:
            inside.wait()
            seen.append(state["threads"])
            release.wait()

    threads = [threading.Thread(target=kernel) for _ in range(2)]
    for thread in threads:
        thread.start()
    inside.wait()
    release.set()
    for thread in threads:
        thread.join()
    assert seen == [1, 1]
    assert state["threads"] == 4


def test_numpy_keeps_its_threads_after_ireelab_runs_blas_kernels_on_local_task() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHECK_THREADS], input=MATMUL_BIAS, capture_output=True,
        text=True, check=True, timeout=300,
    )  # fmt: skip
    before, after = out.stdout.split()
    assert after == before


def test_holding_wrapper_counts_like_the_scope_and_restores_after_a_raise() -> None:
    # `holding` inlines the scope's counting (the per-call fast path); a kernel that raises
    # still leaves OpenBLAS's count as it found it.
    from ireelab.runtime.hal.blas_threads import SingleThreadedBlas

    state = {"threads": 3}

    def set_threads(count: int) -> int:
        previous, state["threads"] = state["threads"], count
        return previous

    scope = SingleThreadedBlas(set_threads)
    seen = []
    inner = scope.holding(lambda: seen.append(state["threads"]))

    def outer() -> None:
        with scope:
            inner()
            seen.append(state["threads"])

    def failing() -> None:
        raise ValueError("kernel fault")

    assert scope.holding(lambda x: x + 1)(1) == 2
    scope.holding(outer)()
    assert seen == [1, 1] and state["threads"] == 3
    try:
        scope.holding(failing)()
    except ValueError:
        pass
    assert state["threads"] == 3
