"""A kernel that fails inside its C entry point fails the call (`runtime/hal/kernel_faults.py`).

numba's C entry points cannot return an exception; without the runtime catching numba's
report, the call returned the output buffer unwritten. Here a reshape whose size is read
from a tensor disagrees with its source's element count: IREE leaves that undefined, ireelab
must not hand back uninitialised memory as a result.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

import ireelab
from ireelab.runtime.errors import DispatchError
from ireelab.runtime.hal import kernel_faults

SOURCE = """
func.func @f(%a: tensor<?xf32>, %rows: tensor<i64>) -> tensor<?x4xf32> {
  %r0 = tensor.extract %rows[] : tensor<i64>
  %r = arith.index_cast %r0 : i64 to index
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%r, 4] : tensor<?xf32> into tensor<?x4xf32>
  %o = tensor.empty(%r) : tensor<?x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<?x4xf32>) outs(%o : tensor<?x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<?x4xf32>
  return %g : tensor<?x4xf32>
}
"""


@pytest.mark.parametrize("device", ["local-task", "local-sync"])
def test_a_failing_kernel_fails_the_call_and_the_module_stays_usable(device):
    module = ireelab.compile(SOURCE, device=device)
    a = np.arange(12, dtype=np.float32)
    with pytest.raises(DispatchError, match="f_dispatch_0_elementwise_Dx4_f32.*ValueError"):
        module.f(a, np.array(5000, dtype=np.int64))
    np.testing.assert_array_equal(np.asarray(module.f(a, np.array(3))), (a * a).reshape(3, 4))
    assert kernel_faults.take() is None


def test_other_unraisable_reports_reach_the_previous_hook(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    monkeypatch.setattr(kernel_faults, "_previous", None)
    kernel_faults.install()
    report = type("Report", (), {"object": object(), "exc_value": RuntimeError("x")})()
    sys.unraisablehook(report)
    assert seen == [report] and kernel_faults.take() is None
    numba_report = type(
        "Report", (), {"object": "<numba.core.cpu.CPUContext>", "exc_value": ValueError("y")}
    )()
    sys.unraisablehook(numba_report)
    assert seen == [report] and isinstance(kernel_faults.take(), ValueError)
