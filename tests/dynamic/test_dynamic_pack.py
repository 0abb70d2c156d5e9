"""`linalg.pack` / `linalg.unpack` on `?`-sized tensors: one module packs and unpacks every
size (the outer sizes computed on the host, the source's sizes read by the kernel for the
padding), compared with numpy exactly (a pack copies), and with the real IREE: the same
dispatch, export name and workload, and the same results."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"
SIZES = [(1, 1), (8, 4), (9, 5), (33, 70), (64, 3)]
"""Whole tiles, one partial tile, and sizes past the workgroup tiles with partial last tiles."""


def pack_reference(a: np.ndarray) -> np.ndarray:
    """`pack_padded_dxd.mlir` in numpy: pad with -1 to whole 8x4 tiles, tile, outer dims swapped."""
    m, n = a.shape
    mo, no = -(-m // 8), -(-n // 4)
    padded = np.full((mo * 8, no * 4), -1, np.float32)
    padded[:m, :n] = a
    return padded.reshape(mo, 8, no, 4).transpose(2, 0, 1, 3)


def unpack_reference(packed: np.ndarray, m: int, n: int) -> np.ndarray:
    """`unpack_dxd.mlir`: element (i, j) is at packed[i // 8, j // 4, j % 4, i % 8]."""
    mo, no = packed.shape[:2]
    return packed.transpose(0, 3, 1, 2).reshape(mo * 8, no * 4)[:m, :n]


def _packed_input(rng, m: int, n: int) -> np.ndarray:
    return rng.standard_normal((-(-m // 8), -(-n // 4), 4, 8), dtype=np.float32)


@pytest.fixture(scope="module")
def modules():
    return {
        name: ireelab.compile(str(PROGRAMS / f"{name}.mlir"))
        for name in ("pack_padded_dxd", "unpack_dxd")
    }


def test_one_pack_module_every_size_matches_numpy(modules):
    rng = np.random.default_rng(3)
    for m, n in SIZES:
        a = rng.standard_normal((m, n), dtype=np.float32)
        np.testing.assert_array_equal(modules["pack_padded_dxd"].pack(a), pack_reference(a))


def test_one_unpack_module_every_size_matches_numpy(modules):
    rng = np.random.default_rng(4)
    for m, n in SIZES:
        packed = _packed_input(rng, m, n)
        like = np.zeros((m, n), np.float32)
        got = modules["unpack_dxd"].unpack(packed, like)
        np.testing.assert_array_equal(got, unpack_reference(packed, m, n))


def test_one_unpack_module_every_tiling_matches_numpy():
    """Tile sizes as SSA values (read from the packed tensor's dims): one kernel for every
    tiling. Not compared with the real IREE: iree-compile 3.13 refuses this unpack (its CPU
    backend asks for an unbounded stack allocation)."""
    module = ireelab.compile(str(PROGRAMS / "unpack_ssa_tiles.mlir"))
    rng = np.random.default_rng(6)
    for m, n, t0, t1 in [(5, 7, 2, 3), (1, 1, 1, 1), (16, 9, 8, 4), (33, 70, 32, 16)]:
        mo, no = -(-m // t0), -(-n // t1)
        packed = rng.standard_normal((mo, no, t1, t0), dtype=np.float32)
        got = module.unpack(packed, np.zeros((m, n), np.float32))
        want = packed.transpose(0, 3, 1, 2).reshape(mo * t0, no * t1)[:m, :n]
        np.testing.assert_array_equal(got, want)


def test_the_pack_kernel_is_compiled_once_for_every_size():
    ir = ireelab.compile(str(PROGRAMS / "pack_padded_dxd.mlir"), compile_to="flow").ir()
    assert re.findall(r"flow\.executable\.export public @(\w+)", ir) == ["pack_dispatch_0_pack_f32"]
    assert "tensor<?x?x8x4xf32>" in ir


# ---- against the real IREE -----------------------------------------------------------------

needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


def _dispatches(ir: str) -> list[tuple[str, int]]:
    """(export, workload count) of every `flow.dispatch` site."""
    sites = re.findall(r"flow\.dispatch @\w+::@(\w+)\[([^\]]*)\]", ir)
    return [(name, len(workload.split(","))) for name, workload in sites]


@pytest.mark.iree
@needs_iree
@pytest.mark.parametrize("name", ["pack_padded_dxd", "unpack_dxd"])
def test_dispatch_sites_names_and_workloads_match_iree(name):
    import ireelab.iree

    path = PROGRAMS / f"{name}.mlir"
    iree_ir = ireelab.iree.compile(str(path), compile_to="flow", trace=False).ir()
    ours = ireelab.compile(str(path), compile_to="flow").ir()
    assert _dispatches(ours) == _dispatches(iree_ir)


@pytest.mark.iree
@needs_iree
def test_results_equal_iree_at_several_sizes(modules):
    import ireelab.iree

    theirs_pack = ireelab.iree.compile((PROGRAMS / "pack_padded_dxd.mlir").read_text())
    theirs_unpack = ireelab.iree.compile((PROGRAMS / "unpack_dxd.mlir").read_text())
    rng = np.random.default_rng(5)
    for m, n in SIZES:
        a = rng.standard_normal((m, n), dtype=np.float32)
        np.testing.assert_array_equal(modules["pack_padded_dxd"].pack(a), theirs_pack.pack(a))
        packed = _packed_input(rng, m, n)
        like = np.zeros((m, n), np.float32)
        np.testing.assert_array_equal(
            modules["unpack_dxd"].unpack(packed, like), theirs_unpack.unpack(packed, like)
        )
