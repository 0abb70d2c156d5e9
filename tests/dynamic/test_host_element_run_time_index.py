"""Host `tensor.extract` / `tensor.insert` at indices computed at run time.

iree-compile leaves them on the host as `flow.tensor.load` / `flow.tensor.store` with SSA
indices; EncodeHostTensorsPass computes the element's byte offset on the host
(`(i * 4 + j) * 4` for element [i, j] of a 4-wide f32 tensor) and ScheduleAllocationPass
copies those bytes to staging (`stream.cmd.copy %src[%off]`) or fills them
(`stream.cmd.fill %v, %dst[%off for %c4]`). ireelab does the same; an i64 is two 32-bit
loads or fills. Differences from IREE 3.13: IREE fills from the linearised end index (20
bytes for element [i, 1] of a 3x4 f32 tensor, `host_elements.py`), so writes are compared
with numpy only; reads with numpy and the real IREE. An index out of bounds is the
runtime's OUT_OF_RANGE error, as IREE's.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import ireelab

PROGRAM = Path(__file__).parent / "programs" / "host_element_at_run_time_index.mlir"
A = np.arange(12, dtype=np.float32).reshape(3, 4) * np.float32(1.5) - np.float32(4)
B = np.array([2**40 + 3, -5, 7, -(2**35), 11], np.int64)


@pytest.fixture(scope="module")
def module():
    return ireelab.compile(str(PROGRAM))


def test_reads_every_element(module):
    for i in range(3):
        for j in range(4):
            assert module.read(A, np.int32(i), np.int32(j)) == A[i, j]
    for i in range(5):
        assert int(module.read_i64(B, np.int32(i))) == B[i]


def test_writes_one_element_and_leaves_the_argument(module):
    before = A.copy()
    for i in range(3):
        want = A.copy()
        want[i, 1] = -2.25
        np.testing.assert_array_equal(module.write(A, np.int32(i), np.float32(-2.25)), want)
    np.testing.assert_array_equal(A, before)
    for i in range(5):
        want = B.copy()
        want[i] = -(2**41) - 9
        np.testing.assert_array_equal(module.write_i64(B, np.int32(i), np.int64(want[i])), want)


def test_the_host_computes_the_byte_offset():
    ir = ireelab.compile(str(PROGRAM), compile_to="stream").ir()
    read = ir[ir.index("@read(") : ir.index("@write(")]
    assert re.search(r"stream\.cmd\.copy %\w+\[%\d+\], %\w+\[%c0\], %c4", read)
    write = ir[ir.index("@write(") : ir.index("@write_i64(")]
    assert re.search(r"stream\.cmd\.fill %\w+, %\w+\[%\d+ for %c4\]", write)


def test_an_index_out_of_bounds_is_a_runtime_error(module):
    with pytest.raises(Exception, match="OUT_OF_RANGE"):
        module.read(A, np.int32(7), np.int32(0))


needs_iree = pytest.mark.skipif(
    shutil.which("iree-compile") is None, reason="IREE (iree-compile) not installed"
)


@pytest.mark.iree
@needs_iree
def test_reads_match_iree(module):
    import ireelab.iree

    theirs = ireelab.iree.compile(str(PROGRAM), trace=False)
    for i, j in ((0, 0), (1, 2), (2, 3)):
        want = theirs.invoke_all("read", A, np.int32(i), np.int32(j))
        want = want[0] if isinstance(want, tuple | list) else want
        assert module.read(A, np.int32(i), np.int32(j)) == want
