"""End to end: `tensor.extract` and `tensor.splat` compiled the way IREE 3.13 does them and run
on the HAL runtime, compared with numpy.

- a scalar extracted from an operand and used in an elementwise body is a `tensor.extract` of
  the loaded operand inside the dispatch, bufferized to a `memref.load` of the binding;
- a gather (`tensor.extract %table[f(linalg.index)]` in the body) keeps the whole table in
  every workgroup while the result is tiled;
- a splat of a constant folds into the dispatch body as a scalar.

Every result is one f32 multiply or add per element, done identically by numpy and the kernel,
so comparisons are exact. Runtime splats are checked at the IR they reach.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ireelab
from ireelab.diagnostics import CompileError

PROGRAMS = Path(__file__).parent.parent / "flow" / "programs"
RNG = np.random.default_rng(11)


def _source(name: str) -> str:
    return (PROGRAMS / f"{name}.mlir").read_text()


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def test_scalar_extracted_into_an_elementwise_dispatch() -> None:
    module = ireelab.compile(_source("extract_scalar_into_elementwise"))
    a, b = _f32(4, 6), _f32(4, 6)
    np.testing.assert_array_equal(module.ex(a, b), b * a[1, 2])


def test_gather_with_linalg_index() -> None:
    module = ireelab.compile(_source("extract_gather_linalg_index"))
    table, b = _f32(8), _f32(4, 6)
    i, j = np.meshgrid(np.arange(4), np.arange(6), indexing="ij")
    np.testing.assert_array_equal(module.gather(table, b), b * table[(i + j) % 8])


SELECT_BY_SCALAR = """
func.func @pick(%c: tensor<i1>, %a: tensor<3x5xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %x = tensor.extract %c[] : tensor<i1>
  %r = arith.select %x, %a, %b : tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
"""


def test_select_of_whole_tensors_by_an_extracted_scalar() -> None:
    # ONNX's If with static branches: one dispatch selects by the scalar, element by element
    module = ireelab.compile(SELECT_BY_SCALAR)
    a, b = _f32(3, 5), _f32(3, 5)
    np.testing.assert_array_equal(module.pick(np.array(True), a, b), a)
    np.testing.assert_array_equal(module.pick(np.array(False), a, b), b)


GATHER_TILED = """
#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather(%table: tensor<37xf32>, %b: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c37 = arith.constant 37 : index
    %i3 = arith.muli %i, %c3 : index
    %s = arith.addi %i3, %j : index
    %k = arith.remui %s, %c37 : index
    %t = tensor.extract %table[%k] : tensor<37xf32>
    %y = arith.addf %x, %t : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
"""


def test_gather_over_several_workgroups_reads_the_whole_table() -> None:
    module = ireelab.compile(GATHER_TILED)
    grid = module.trace.find("TileAndDistributeToWorkgroupsPass")[-1].ir
    assert "hal.interface.workgroup.id" in grid, "the gather should be distributed"
    table, b = _f32(37), _f32(64, 96)
    i, j = np.meshgrid(np.arange(64), np.arange(96), indexing="ij")
    expected = b + table[(i * 3 + j) % 37]
    np.testing.assert_array_equal(module.gather(table, b), expected)
    np.testing.assert_array_equal(module.invoke("gather", table, b, device="local-sync"), expected)


def test_splat_of_a_constant_folds_into_the_dispatch() -> None:
    module = ireelab.compile(_source("splat_constant_scalar"))
    assert "tensor.splat" not in module.trace.find("CanonicalizerPass")[0].ir
    b = _f32(4, 6)
    np.testing.assert_array_equal(module.spc(b), b * np.float32(2.5))


def test_splat_of_a_runtime_scalar_becomes_a_fill_of_its_bits() -> None:
    """IREE 3.13 stops here ('failed to legalize tensor.splat'); ireelab lowers the splat like
    flow.tensor.splat. Running it needs f32 arguments in the VM (not there yet)."""
    stream_ir = ireelab.compile(_source("splat_runtime_scalar"), compile_to="stream").ir()
    assert "arith.bitcast %arg0 : f32 to i32" in stream_ir
    assert "stream.cmd.fill" in stream_ir


def test_read_on_the_host_is_a_flow_tensor_load() -> None:
    flow_ir = ireelab.compile(_source("extract_on_host"), compile_to="flow").ir()
    assert "flow.tensor.load %0[%c1, %c1] : tensor<4x6xf32>" in flow_ir
    a = _f32(4, 6)  # read back through a staging buffer: tests/e2e/test_host_element_access.py
    assert ireelab.compile(_source("extract_on_host")).exh(a) == a[1, 1]


def test_constant_index_out_of_bounds_is_a_located_error() -> None:
    source = _source("extract_scalar_into_elementwise").replace(
        "%c2 = arith.constant 2", "%c2 = arith.constant 6"
    )
    with pytest.raises(CompileError, match="index 6 is out of bounds for dimension 1") as err:
        ireelab.compile(source)
    assert err.value.location is not None and err.value.location.line == 5
