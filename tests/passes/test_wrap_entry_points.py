"""WrapEntryPointsPass (`iree-abi-wrap-entry-points`): a public function called by another.

Each public function gets a buffer-view wrapper; calls from the program keep calling the tensor
function (IREE retargets internal call sites the same way). Before, the call reached the
wrapper with a tensor and the input stage failed its verifier
(`!hal.buffer_view should be of base attribute tensor`).
"""

from __future__ import annotations

import numpy as np

import ireelab

CALLS_A_PUBLIC_FUNCTION = """
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = math.sqrt %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def test_both_functions_are_exported_with_their_own_wrapper():
    text = ireelab.compile(CALLS_A_PUBLIC_FUNCTION, compile_to="abi").ir()
    assert "util.func public @g(%arg0: !hal.buffer_view) -> !hal.buffer_view" in text
    assert "util.func public @f(%arg0: !hal.buffer_view) -> !hal.buffer_view" in text
    assert "util.call @g(" not in text  # no call reaches a buffer-view wrapper


def test_calling_a_public_function_runs():
    module = ireelab.compile(CALLS_A_PUBLIC_FUNCTION, device="local-sync")
    a = np.linspace(0.0, 2.0, 4, dtype=np.float32)
    np.testing.assert_allclose(module.f(a), np.sqrt(np.exp(a)), rtol=1e-6)
    np.testing.assert_allclose(module.g(a), np.exp(a), rtol=1e-6)
