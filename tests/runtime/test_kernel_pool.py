"""Parallel kernel compilation (`runtime/hal/kernel_pool.py`): the same results as compiling
one kernel after another, kernels compiled once are reused by other modules, and a kernel that
fails in a worker is one located `HALError`, not a hang.

Each end-to-end case runs in a fresh process with empty kernel and numba caches, as a user's
first run would (in one process, equal kernel sources share an imported module)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ireelab.runtime.errors import HALError
from ireelab.runtime.hal import kernel_markers, kernel_pool
from ireelab.runtime.hal.executable_loader import trust_kernel_source

ROOT = Path(__file__).resolve().parents[2]


def mlp(widths: list[int], batch: int = 3) -> str:
    """matmul + bias + tanh per layer; layers of different widths are distinct kernels."""
    args = [f"%x: tensor<{batch}x{widths[0]}xf32>"]
    body = ["  %zero = arith.constant 0.0 : f32"]
    previous = "%x"
    for i, (k, n) in enumerate(zip(widths, widths[1:], strict=False)):
        args += [f"%w{i}: tensor<{k}x{n}xf32>", f"%b{i}: tensor<{n}xf32>"]
        t = f"tensor<{batch}x{n}xf32>"
        body += [
            f"  %e{i} = tensor.empty() : {t}",
            f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {t}) -> {t}",
            f"  %m{i} = linalg.matmul ins({previous}, %w{i} : tensor<{batch}x{k}xf32>, "
            f"tensor<{k}x{n}xf32>) outs(%f{i} : {t}) -> {t}",
            f"  %g{i} = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
            "affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], "
            f'iterator_types = ["parallel", "parallel"]}} ins(%m{i}, %b{i} : {t}, '
            f"tensor<{n}xf32>) outs(%e{i} : {t}) {{",
            "  ^bb0(%in: f32, %bias: f32, %out: f32):",
            "    %s = arith.addf %in, %bias : f32",
            "    %h = math.tanh %s : f32",
            "    linalg.yield %h : f32",
            f"  }} -> {t}",
        ]
        previous = f"%g{i}"
    out = f"tensor<{batch}x{widths[-1]}xf32>"
    header = f"func.func @mlp({', '.join(args)}) -> {out} {{"
    return "\n".join([header, *body, f"  return {previous} : {out}", "}"]) + "\n"


FIRST_RESULT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import ireelab
    from ireelab.runtime.hal import kernel_pool

    source, widths = sys.argv[1], json.loads(sys.argv[2])
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, widths[0])).astype(np.float32)
    args, ref = [x], x
    for k, n in zip(widths, widths[1:]):
        w = (rng.standard_normal((k, n)) / k).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        args += [w, b]
        ref = np.tanh(ref @ w + b)
    module = ireelab.compile(open(source).read())
    result = module.mlp(*args)
    np.testing.assert_allclose(result, ref, rtol=1e-5, atol=1e-5)
    """
)
"""A fresh process's first result of `mlp(widths)` (argv: the source file, the widths),
checked against numpy; scripts add what they report after it."""

RUN = FIRST_RESULT + textwrap.dedent(
    """
    print(json.dumps({"result": result.tobytes().hex(), "jobs": len(kernel_pool._IN_FLIGHT)}))
    """
)


def run_fresh(
    tmp_path: Path, name: str, widths: list[int], caches: Path, script: str = RUN, **env
) -> dict:
    """What `script` (by default `RUN`) prints last, as JSON, run in a fresh process with
    the kernel and numba caches under `caches`."""
    source = tmp_path / f"{name}.mlir"
    source.write_text(mlp(widths))
    environment = {
        **os.environ,
        "IREELAB_CACHE_DIR": str(caches / "kernels"),
        "NUMBA_CACHE_DIR": str(caches / "numba"),
        "PYTHONPATH": str(ROOT),
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", script, str(source), json.dumps(widths)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def markers(caches: Path) -> set[str]:
    return {p.name for p in (caches / "kernels").glob(f"n_*{kernel_markers.MARKER_SUFFIX}")}


def test_parallel_compile_gives_the_serial_bits_and_is_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    widths = [5, 6, 7, 8]  # three distinct layer kernels (plus nothing shared)
    # specialised kernels only: generic ones (test_generic_kernels.py) would add markers
    monkeypatch.setenv("IREELAB_GENERIC_KERNELS", "0")
    serial = run_fresh(tmp_path, "a", widths, tmp_path / "serial", IREELAB_PARALLEL_KERNELS="0")
    parallel = run_fresh(tmp_path, "a", widths, tmp_path / "parallel")
    # Same bits from kernels compiled in workers as from kernels compiled in the caller.
    assert parallel["result"] == serial["result"]
    # The workers (or the waiting process helping them) compiled and marked all three.
    assert len(markers(tmp_path / "parallel")) == 3
    assert not markers(tmp_path / "serial")
    # Another module sharing two of those layers: only its new kernels are compile jobs.
    from ireelab.compiler.api import compile_text
    from ireelab.runtime.vm.module_file import read_module

    other = compile_text(mlp([5, 6, 7, 9]), "other.mlir").module_bytes()
    image = read_module(other)
    binaries = [image.rodata[e["rodata"]].data for e in image.executables]
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path / "parallel" / "kernels"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "parallel" / "numba"))
    jobs, running = kernel_pool.kernel_jobs(binaries)
    assert len(binaries) == 3 and len(jobs) == 1 and not running


BAD_KERNEL = """
import numba
import numpy as np

_JIT_OPTIONS = dict(nogil=True, cache=True)


@numba.njit(**_JIT_OPTIONS)
def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0):
    b0.view(np.float32)[0] = undefined_name
"""

GOOD_KERNEL = """
import numba
import numpy as np

_JIT_OPTIONS = dict(nogil=True, cache=True)


@numba.njit(**_JIT_OPTIONS)
def dispatch_0(wg_begin, wg_end, wg_count_x, wg_count_y, wg_count_z, b0):
    b0.view(np.float32)[0] = {value}
"""

CRASHING_KERNEL = """
import os
os._exit(3)
_JIT_OPTIONS = dict()
"""


def binary(source: str, export: str) -> bytes:
    trust_kernel_source(source)
    exports = [{"name": export, "ordinal": 0, "bindings": 1, "workgroup_size": [1, 1, 1]}]
    document = {"format": "numba-python", "version": 1, "exports": exports, "source": source}
    return json.dumps(document).encode()


@pytest.fixture()
def empty_kernel_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("IREELAB_CACHE_DIR", str(tmp_path / "kernels"))
    return tmp_path / "kernels"


@pytest.mark.parametrize("help_here", [True, False])
def test_a_kernel_failing_in_a_worker_is_a_located_error(empty_kernel_cache, help_here) -> None:
    binaries = [
        binary(BAD_KERNEL, "broken_dispatch_0"),
        binary(GOOD_KERNEL.format(value=f"{2.0 + help_here}"), "fine_dispatch_0"),
    ]
    compilation = kernel_pool.start(binaries)
    assert compilation is not None
    with pytest.raises(HALError) as info:
        compilation.wait(help_here=help_here)
    message = str(info.value)
    assert "'broken_dispatch_0'" in message and "k_" in message and "undefined_name" in message
    assert len(message.splitlines()) == 1


def test_a_worker_that_dies_is_an_error_not_a_hang(empty_kernel_cache) -> None:
    binaries = [
        binary(CRASHING_KERNEL, "crashing_dispatch_0"),
        binary(GOOD_KERNEL.format(value="4.0"), "other_dispatch_0"),
    ]
    compilation = kernel_pool.start(binaries, workers=2)
    assert compilation is not None
    with pytest.raises(HALError) as info:
        compilation.wait(help_here=False)
    assert "exited (code 3)" in str(info.value) and "'crashing_dispatch_0'" in str(info.value)


def test_terminal_progress_after_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    report = kernel_pool._TerminalProgress()
    report(1, 48)  # within the first second: quiet
    report.start -= 2.0
    report(12, 48)
    report(48, 48)
    assert terminal.getvalue() == "\rcompiling kernels 12/48\rcompiling kernels 48/48\n"


def test_an_export_with_more_arguments_than_cpython_calls_plainly_gets_no_entry():
    # 5 grid arguments + 25 bindings is the most a call passes without `*args`; one more
    # binding and numba could not inline the kernel, so neither the pool nor a load tries
    from ireelab.runtime.hal.native_entries import can_have_entries, entry_addresses

    assert can_have_entries([(0, 25, 0), (1, 20, 5)])
    assert not can_have_entries([(0, 25, 0), (1, 26, 0)])
    assert not can_have_entries([(0, 24, 2)])
    assert entry_addresses("k_never_written", [(0, 28, 0)]) is None
