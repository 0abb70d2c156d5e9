// iree_linalg_ext.map_load / map_store: an index mapping region says where each element
// comes from (map_load, with a padding value outside the source) or goes (map_store, where
// its mask is true); affine.linearize_index / delinearize_index express reshapes in it.

// a transpose of a 2x3 into 3x2 as a map_load, and a shifted window padded with -1.
func.func @map_load_transpose_and_shifted_window() {
  %src = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %e = tensor.empty() : tensor<3x2xi32>
  %pad = arith.constant -1 : i32
  %t = iree_linalg_ext.map_load %src into %e {
  ^bb0(%i: index, %j: index):
    iree_linalg_ext.yield %j, %i, %pad : index, index, i32
  } : tensor<2x3xi32> into tensor<3x2xi32> -> tensor<3x2xi32>
  check.expect_eq_const(%t, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  %e2 = tensor.empty() : tensor<2x3xi32>
  %c1 = arith.constant 1 : index
  %w = iree_linalg_ext.map_load %src into %e2 {
  ^bb0(%i: index, %j: index):
    %jj = arith.subi %j, %c1 : index
    iree_linalg_ext.yield %i, %jj, %pad : index, index, i32
  } : tensor<2x3xi32> into tensor<2x3xi32> -> tensor<2x3xi32>
  check.expect_eq_const(%w, dense<[[-1, 1, 2], [-1, 4, 5]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// a 2x3x2 -> 12 reshape through delinearize_index (map_load) and back through
// linearize_index (map_store).
func.func @reshapes_through_index_ops() {
  %src = util.unfoldable_constant dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]> : tensor<2x3x2xf32>
  %pad = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12xf32>
  %flat = iree_linalg_ext.map_load %src into %e {
  ^bb0(%x: index):
    %i:3 = affine.delinearize_index %x into (2, 3, 2) : index, index, index
    iree_linalg_ext.yield %i#0, %i#1, %i#2, %pad : index, index, index, f32
  } : tensor<2x3x2xf32> into tensor<12xf32> -> tensor<12xf32>
  check.expect_almost_eq_const(%flat, dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]> : tensor<12xf32>) : tensor<12xf32>
  %true = arith.constant true
  %e2 = tensor.empty() : tensor<12xf32>
  %back = iree_linalg_ext.map_store %src into %e2 {
  ^bb0(%a: index, %b: index, %c: index):
    %x = affine.linearize_index disjoint [%a, %b, %c] by (2, 3, 2) : index
    iree_linalg_ext.yield %x, %true : index, i1
  } : tensor<2x3x2xf32> into tensor<12xf32> -> tensor<12xf32>
  check.expect_almost_eq(%back, %flat) : tensor<12xf32>
  return
}

// map_store writes only where the mask is true: even inputs, into a pre-filled output.
func.func @map_store_masked() {
  %in = util.unfoldable_constant dense<[10, 11, 12, 13]> : tensor<4xi32>
  %out = util.unfoldable_constant dense<0> : tensor<4xi32>
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %r = iree_linalg_ext.map_store %in into %out {
  ^bb0(%i: index):
    %m = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %m, %c0 : index
    iree_linalg_ext.yield %i, %even : index, i1
  } : tensor<4xi32> into tensor<4xi32> -> tensor<4xi32>
  check.expect_eq_const(%r, dense<[10, 0, 12, 0]> : tensor<4xi32>) : tensor<4xi32>
  return
}
