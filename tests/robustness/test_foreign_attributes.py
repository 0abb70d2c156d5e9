"""Attributes of dialects ireelab does not load are carried along, not fatal (issue 15).

IREE's TOSA input conversion leaves `tosa.target_env` on the module; torch exports mark the
module with `torch.debug_module_name`; other tools put their own discardable attributes on
functions and ops. ireelab parses them as opaque attributes: the program compiles and runs,
and the module attribute is still on the module after the last stage. Ops and types of those
dialects stay refused (the bad-input corpus), as do unknown attributes of dialects ireelab
does load (`#hal.nonsense`).
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import ireelab

TARGET_ENV = (
    '#tosa.target_env<specification_version = "1.0", level = none, '
    "profiles = [pro_int, pro_fp], extensions = [dynamic, doubleround]>"
)

PROGRAM = f"""
module attributes {{tosa.target_env = {TARGET_ENV}, torch.debug_module_name = "Net"}} {{
  func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32>
      attributes {{torch.assume_strict_symbolic_shapes, foo.note = #foo.anything<[1, 2]>}} {{
    %e = tensor.empty() : tensor<2x3xf32>
    %0 = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>)
        outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = math.exp %0 {{onnx.name = "Exp_0", foo.tag = #foo.tag<x>}} : tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }}
}}
"""

TOSA = """
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.abs %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
"""


def _inputs():
    rng = np.random.default_rng(3)
    return [rng.uniform(-2, 2, size=(2, 3)).astype(np.float32) for _ in range(2)]


def test_foreign_attributes_are_carried_and_the_program_runs():
    module = ireelab.compile(PROGRAM, device="local-sync")
    a, b = _inputs()
    np.testing.assert_allclose(module.f(a, b), np.exp(a + b), rtol=1e-6)


@pytest.mark.parametrize("phase", ["input", "flow", "vm"])
def test_module_attribute_kept_through_the_stages(phase):
    text = ireelab.compile(PROGRAM, compile_to=phase).ir()
    assert f"tosa.target_env = {TARGET_ENV}" in text
    assert 'torch.debug_module_name = "Net"' in text


@pytest.mark.iree
@pytest.mark.skipif(shutil.which("iree-compile") is None, reason="iree-compile not installed")
def test_tosa_after_iree_input_conversion(tmp_path):
    """What `iree-compile --iree-input-type=tosa --compile-to=input` leaves (linalg, and the
    module's `tosa.target_env`) compiles and matches numpy."""
    source = tmp_path / "tosa.mlir"
    source.write_text(TOSA)
    converted = subprocess.run(
        ["iree-compile", str(source), "--iree-input-type=tosa", "--compile-to=input"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert "tosa.target_env" in converted  # what issue 15 found ireelab rejecting
    module = ireelab.compile(converted, device="local-sync")
    a, b = _inputs()
    np.testing.assert_allclose(module.f(a, b), np.abs(a + b), rtol=1e-6)
