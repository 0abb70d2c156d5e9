"""Pack and unpack dispatches tiled across workgroups (`TileAndDistributeToWorkgroupsPass` with
`packing_regions.py`), as IREE's CPU codegen tiles them: the data-tiled matmul's packs have more
than one workgroup, also at sizes that leave partial tiles (a padded dim stays whole in each
workgroup, another is cut), and the results equal numpy's within 1e-4 on one thread and two."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ireelab

MATMUL = """
func.func @mm(%a: tensor<MxKxf32>, %b: tensor<KxNxf32>) -> tensor<MxNxf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<MxNxf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<MxNxf32>) -> tensor<MxNxf32>
  %r = linalg.matmul ins(%a, %b : tensor<MxKxf32>, tensor<KxNxf32>)
      outs(%f : tensor<MxNxf32>) -> tensor<MxNxf32>
  %s = arith.constant 0.5 : f32
  %e2 = tensor.empty() : tensor<MxNxf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<MxNxf32>) outs(%e2 : tensor<MxNxf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<MxNxf32>
  return %g : tensor<MxNxf32>
}
"""

EXPORT = re.compile(
    r"hal\.executable\.export public @\w+_dispatch_\d+_(\w+) ordinal.*?count\(.*?\{(.*?)hal\.return"
    r" (%\w+), (%\w+), (%\w+)",
    re.S,
)


def matmul(m: int, k: int, n: int) -> str:
    return MATMUL.replace("MxK", f"{m}x{k}").replace("KxN", f"{k}x{n}").replace("MxN", f"{m}x{n}")


def workgroups(text: str) -> dict[str, list[int]]:
    """Export name (after `_dispatch_N_`) -> workgroup counts of each export with that name."""
    counts: dict[str, list[int]] = {}
    for name, body, *grid in EXPORT.findall(text):
        constants = dict(re.findall(r"(%\w+) = arith\.constant (\d+) : index", body))
        total = int(np.prod([int(constants[v]) for v in grid]))
        counts.setdefault(name, []).append(total)
    return counts


@pytest.mark.parametrize(
    ("shape", "unpack_workgroups"),
    [
        ((256, 128, 64), 4),  # whole tiles: the unpack (+ scale) is cut into 64-row blocks
        ((100, 160, 70), 1),  # M and N padded: packs cut along K, the unpack stays whole
        ((64, 96, 200), 1),  # N padded: the lhs pack cut along M, the rhs along K
    ],
)
def test_pack_dispatches_have_several_workgroups(shape, unpack_workgroups):
    m, k, n = shape
    source = matmul(m, k, n)
    text = ireelab.compile(source, compile_to="executable-targets", data_tiling=True).ir()
    counts = workgroups(text)
    packs = counts["pack_f32"]
    assert len(packs) == 2 and all(c > 1 for c in packs), counts
    assert counts["unpack_elementwise_" + f"{m}x{n}_f32"] == [unpack_workgroups], counts
    module = ireelab.compile(source, data_tiling=True)
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    expected = (a @ b) * 0.5
    for device in ("local-sync", "local-task"):
        np.testing.assert_allclose(module.mm(a, b, device=device), expected, rtol=1e-4, atol=1e-4)


def test_padded_pack_dim_is_not_cut():
    # 100 rows in tiles of 16 (the last one padded): the lhs pack's 7 row tiles stay in every
    # workgroup (a static slice cannot shorten the last one), its 160 columns are cut
    text = ireelab.compile(
        matmul(100, 160, 70), compile_to="executable-targets", data_tiling=True
    ).ir()
    assert "memref<7x40x16x1xf32" in text
