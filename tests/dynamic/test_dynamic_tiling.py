"""`?`-sized dispatches are tiled across workgroups whose count is computed at dispatch time.

The export's count region computes `ceildiv(workload, tile)` (IREE's resolved
`workgroup_count_from_slice`), ConvertToHAL inlines it on the host, and the kernel clamps its
last tile to `min(tile, size - offset)`. Checked here: the count each dispatch gets at run time
follows the size (counted on the HAL command buffer), results stay exact at sizes with a
partial last tile, and the IR has the shape IREE prints for it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAMS = Path(__file__).parent / "programs"


def _row_tile(path: Path) -> int:
    """The row tile: the divisor of the count region's `ceildiv` (read from the IR, so the
    test follows the tile sizes the lowering strategy picks)."""
    ir = ireelab.compile(str(path), compile_to="executable-targets").ir()
    region = re.search(r"count\(%\w+: !hal\.device.*?hal\.return", ir, re.S).group(0)
    divisor = re.search(r"arith\.divsi %\w+, (%\w+) : index", region).group(1)
    return int(re.search(rf"{divisor} = arith\.constant (\d+) : index", region).group(1))


CASES = {
    # program: (function, arguments at n rows, numpy reference, workload per row)
    # add_dx4's dispatch is collapsed to one `?` loop over elements, as IREE's
    "add_dx4": ("add", lambda n, r: [r((n, 4)), r((n, 4))], lambda a, b: a + b, 4),
    "matmul_dxd": ("mmk", lambda n, r: [r((n, 5)), r((5, 16))], lambda a, b: a @ b, 1),
    "rowsum_dxd": ("rowsum", lambda n, r: [r((n, 9))], lambda a: a.sum(axis=1), 1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_workgroup_count_follows_the_size(name, dispatched):
    path = PROGRAMS / f"{name}.mlir"
    tile = _row_tile(path)
    assert tile > 1
    function, arguments, reference, per_row = CASES[name]
    module = ireelab.compile(str(path))
    rng = np.random.default_rng(3)
    for rows in (1, tile - 1, tile, tile + 1, 3 * tile + 5):
        dispatched.clear()
        args = arguments(rows, lambda shape: rng.standard_normal(shape, dtype=np.float32))
        got = getattr(module, function)(*args)
        assert dispatched == [(math.ceil(rows * per_row / tile), 1, 1)], rows
        np.testing.assert_allclose(got, reference(*args), rtol=1e-5, atol=1e-5)


def test_an_empty_batch_dispatches_no_workgroups(dispatched):
    module = ireelab.compile(str(PROGRAMS / "add_dx4.mlir"))
    empty = np.ones((0, 4), np.float32)
    assert module.add(empty, empty).shape == (0, 4)
    assert dispatched == [(0, 1, 1)]


def test_count_region_and_kernel_compute_the_grid_and_remainder():
    """The count region divides its workload argument by the tile (MLIR's arith lowering of
    `ceildiv`, as IREE prints it); the kernel's tile is `min(tile, size - offset)`."""
    ir = ireelab.compile(str(PROGRAMS / "add_dx4.mlir"), compile_to="executable-targets").ir()
    count = re.search(r"count\((%\w+): !hal\.device, (%\w+): index.*?hal\.return ([^:]*)", ir, re.S)
    region = count.group(0)
    assert f"arith.cmpi sle, {count.group(2)}," in region
    assert re.search(r"arith\.divsi %\w+, %\w+ : index", region)
    x = count.group(3).split(",")[0].strip()
    assert re.search(rf"{x} = arith\.select", region)
    assert re.search(r"arith\.minsi %\w+, %\w+ : index", ir)


def test_host_computes_the_grid_from_the_buffer_view_dim():
    """At the HAL phase the count is host code on the argument's runtime dim (times the 4
    elements of a row: the dispatch is collapsed to elements), not a constant."""
    ir = ireelab.compile(str(PROGRAMS / "add_dx4.mlir"), compile_to="hal").ir()
    host = ir[ir.index("util.func public @add") :]
    dim = re.search(r"(%\w+) = hal\.buffer_view\.dim<%arg0", host).group(1)
    products = re.findall(rf"(%\w+) = arith\.muli {dim}, %\w+ : index", host)
    assert any(re.search(rf"arith\.cmpi sle, {p}, ", host) for p in products)
    grid = re.search(r"workgroups\(\[(%\w+),", host).group(1)
    assert re.search(rf"{grid} = arith\.select", host)
