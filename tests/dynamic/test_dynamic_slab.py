"""One transient slab per execute region when transients are sized at run time.

ScheduleAllocationPass lists the `?`-sized transients of a region in one
`stream.resource.pack` (lifetimes and sizes); LayoutSlicesPass lowers it to host arithmetic
(`util.align`, `arith.addi`), as IREE's `iree-stream-layout-slices` does. Checked here: the
pack and its layout on three programs (against the IREE printout where installed), the
concurrency rule (slices live at the same time never share memory), the last-run size of the
slab in the timepoint picture, and one module at several sizes against numpy and IREE.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
RTOL, ATOL = 1e-4, 1e-4
"""float32 row sums of up to 300 terms, summed in another order than numpy's pairwise sums,
then used again (the chain subtracts a sum from every element of the next row)."""

SIZES = [(1, 1), (3, 5), (7, 13), (64, 33), (70, 9), (131, 300)]

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


def _chain(x: np.ndarray) -> np.ndarray:
    s = x.sum(axis=1)
    for _ in range(3):
        s = (x - s[:, None]).sum(axis=1)
    return s


def _rowstats(x: np.ndarray) -> np.ndarray:
    s, q = x.sum(axis=1), (x * x).sum(axis=1)
    return (x * s[:, None] - q[:, None]).sum(axis=1)


def _layernorm(x: np.ndarray, length: np.ndarray) -> np.ndarray:
    centered = x - (x.sum(axis=1) / length[:, 0])[:, None]
    variance = (centered * centered).sum(axis=1) / length[:, 0]
    return centered / np.sqrt(variance + np.float32(1e-5))[:, None]


def _args(name: str, x: np.ndarray) -> list[np.ndarray]:
    if name == "layernorm_dxd":
        return [x, np.full((x.shape[0], 1), x.shape[1], np.float32)]
    return [x]


CASES = {
    "reduction_chain_dxd": ("chain", _chain),
    "rowstats_side_by_side": ("rowstats", _rowstats),
    "layernorm_dxd": ("layernorm", _layernorm),
}


def _after(name: str, flag: str) -> str:
    """The IR ireelab prints after the pass `flag`."""
    out = subprocess.run(
        ["ireelab-compile", str(PROGRAMS / f"{name}.mlir"), "--compile-to=stream"]
        + [f"--mlir-print-ir-after={flag}"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return out.stderr


def _packs(ir: str) -> list[list[tuple[int, int, int]]]:
    """Every `stream.resource.pack` as its slices (start, end, size class), where slices of
    one size class have the same size value."""
    packs = []
    for body in re.findall(r"stream\.resource\.pack [^\n]*slices\(\{\n(.*?)\n\s*\}\)", ir, re.S):
        slices = re.findall(r"\[(\d+), (\d+)\] = (%\w+)", body)
        classes = {size: i for i, size in enumerate(dict.fromkeys(s[2] for s in slices))}
        packs.append([(int(a), int(b), classes[size]) for a, b, size in slices])
    return packs


def _stream_host(name: str) -> str:
    ir = ireelab.compile(str(PROGRAMS / f"{name}.mlir"), compile_to="stream").ir()
    return ir[ir.index("util.func public") :]


def test_layernorm_transients_are_one_packed_slab():
    # the row reciprocals (live at steps 0-2) and the centered rows (1-2) are two slices of
    # one pack; the slab's size is the pack's total
    ir = _after("layernorm_dxd", "iree-stream-schedule-allocation")
    assert _packs(ir) == [[(0, 2, 0), (1, 2, 1)]]
    total = re.search(r"(%\w+), %\w+, %\w+ = stream\.resource\.pack", ir).group(1)
    allocas = re.findall(r"stream\.resource\.alloca [^\n]*", ir)
    assert len(allocas) == 2  # the result and the one slab
    assert allocas[1].endswith(f"!stream.resource<transient>{{{total}}} => !stream.timepoint")


def test_layout_slices_computes_offsets_on_the_host():
    # after LayoutSlicesPass: no pack; the second slice starts at align(first size, 64) and
    # the slab is the sum of both aligned sizes; dispatches get that offset as push constants
    host = _stream_host("layernorm_dxd")
    assert "stream.resource.pack" not in host
    aligned = re.findall(r"(%\w+) = util\.align (%\w+), %c64 : index", host)
    assert len(aligned) == 2
    (first, _), (second, _) = aligned
    total = re.search(rf"(%\w+) = arith\.addi {first}, {second} : index", host).group(1)
    assert re.search(rf"alloca [^\n]*!stream\.resource<transient>\{{{total}\}}", host)
    assert f"arith.index_cast {first} : index to i64" in host


def test_slices_of_one_size_reuse_memory_when_not_live_together():
    # three row vectors of one size live over [0,1], [1,2], [2,3]: the first and the third
    # share a place, so the slab is two aligned row vectors
    assert _packs(_after("reduction_chain_dxd", "iree-stream-schedule-allocation")) == [
        [(0, 1, 0), (1, 2, 0), (2, 3, 0)]
    ]
    host = _stream_host("reduction_chain_dxd")
    row = re.search(r"(%\w+) = util\.align %\w+, %c64 : index", host).group(1)
    total = re.search(rf"(%\w+) = arith\.addi {row}, {row} : index", host).group(1)
    assert f"!stream.resource<transient>{{{total}}}" in host


def test_slices_used_side_by_side_never_share_memory():
    # two reductions run concurrently; their results are the same size and both live at step
    # 0 (the concurrent block) and 1: two places
    assert _packs(_after("rowstats_side_by_side", "iree-stream-schedule-allocation")) == [
        [(0, 1, 0), (0, 1, 0)]
    ]
    host = _stream_host("rowstats_side_by_side")
    assert "stream.cmd.concurrent" in host
    row = re.search(r"(%\w+) = util\.align %\w+, %c64 : index", host).group(1)
    assert re.search(rf"= arith\.addi {row}, {row} : index", host)


def test_static_slabs_have_no_pack():
    # constant sizes are laid out at compile time, as before: the slab size is a constant
    text = "func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {\n"
    text += "  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<64x64xf32>\n"
    text += "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>\n"
    text += "  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>\n"
    text += "  %n = linalg.matmul ins(%m, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>\n"
    text += "  return %n : tensor<64x64xf32>\n}\n"
    ir = ireelab.compile(text, compile_to="stream").ir()
    assert "stream.resource.pack" not in ir and "util.align" not in ir
    assert "!stream.resource<transient>{%c16384}" in ir


def test_the_timepoint_picture_shows_one_slab_with_its_last_run_size():
    module = ireelab.compile(str(PROGRAMS / "layernorm_dxd.mlir"))
    x = np.ones((7, 13), np.float32)
    module.layernorm(x, np.full((7, 1), 13, np.float32))
    allocas = [
        line
        for line in module.timepoint_graph().source.splitlines()
        if "stream.resource.alloca" in line and "label=" in line
    ]
    assert len(allocas) == 2  # the result and the one transient slab
    # the slab: align(7 * 4, 64) + align(7 * 13 * 4, 64) bytes
    source = module.timepoint_graph().source
    assert "(last run 448 B)" in source and "(last run 364 B)" in source


@pytest.fixture(scope="module")
def modules():
    return {name: ireelab.compile(str(PROGRAMS / f"{name}.mlir")) for name in CASES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_module_every_size_matches_numpy(name, modules):
    function, reference = CASES[name]
    rng = np.random.default_rng(11)
    for size in SIZES:
        x = rng.standard_normal(size, dtype=np.float32)
        args = _args(name, x)
        got = getattr(modules[name], function)(*args)
        np.testing.assert_allclose(
            got, reference(*args), rtol=RTOL, atol=ATOL * size[1], err_msg=f"size {size}"
        )


def test_results_of_one_type_share_a_packed_slab():
    # two ?x4 results live until the host has them (lifetime [0, 0] each): one external slab
    # of two aligned places, the host seeing each through a subview
    ir = _after("two_results_dx4", "iree-stream-schedule-allocation")
    assert _packs(ir) == [[(0, 0, 0), (0, 0, 0)]]
    host = _stream_host("two_results_dx4")
    row = re.search(r"(%\w+) = util\.align %\w+, %c64 : index", host).group(1)
    total = re.search(rf"(%\w+) = arith\.addi {row}, {row} : index", host).group(1)
    assert re.search(
        rf"stream\.resource\.subview %\w+\[{row}\] : !stream\.resource<external>\{{{total}\}}", host
    )


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", [*sorted(CASES), "two_results_dx4"])
def test_packs_and_layout_match_iree(name):
    # the same slices (lifetimes, size classes) in the same packs, and the same layout
    # arithmetic and allocations at the end of the Stream stage (bindings differ: IREE merges
    # read-only bindings of one resource, FuseDispatchBindingsPass does not)
    out = subprocess.run(
        ["iree-compile", str(PROGRAMS / f"{name}.mlir"), "--iree-hal-target-backends=llvm-cpu"]
        + ["--compile-to=stream", "--mlir-print-ir-after=iree-stream-schedule-allocation"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    theirs = out.stdout[out.stdout.index("util.func public") :]
    assert _packs(_after(name, "iree-stream-schedule-allocation")) == _packs(out.stderr)
    ours = _stream_host(name)
    for pattern in ("util.align", "arith.addi", "stream.resource.alloca"):
        assert ours.count(pattern) == theirs.count(pattern), pattern


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", sorted(CASES))
def test_results_equal_iree_at_several_sizes(name, modules):
    import ireelab.iree

    function, _ = CASES[name]
    theirs = ireelab.iree.compile((PROGRAMS / f"{name}.mlir").read_text(), trace=False)
    rng = np.random.default_rng(5)
    for size in SIZES:
        args = _args(name, rng.standard_normal(size, dtype=np.float32))
        got = getattr(modules[name], function)(*args)
        want = getattr(theirs, function)(*args)
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL * size[1], err_msg=str(size))
