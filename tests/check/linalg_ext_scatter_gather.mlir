// iree_linalg_ext.scatter / gather: slices addressed by coordinates read from `indices`
// (`dimension_map` says which dim each coordinate addresses); scatter combines with its region.

// scatter-add of rows with a repeated index (unique_indices(false)): both updates add up.
func.func @scatter_add_rows_repeated() {
  %orig = util.unfoldable_constant dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]> : tensor<3x2xf32>
  %upd = util.unfoldable_constant dense<[[10.0, 20.0], [0.5, 0.25], [100.0, 200.0]]> : tensor<3x2xf32>
  %idx = util.unfoldable_constant dense<[[2], [0], [2]]> : tensor<3x1xi32>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false)
      ins(%upd, %idx : tensor<3x2xf32>, tensor<3x1xi32>) outs(%orig : tensor<3x2xf32>) {
    ^bb0(%u: f32, %o: f32):
      %s = arith.addf %u, %o : f32
      iree_linalg_ext.yield %s : f32
  } -> tensor<3x2xf32>
  check.expect_almost_eq_const(%r, dense<[[1.5, 1.25], [2.0, 2.0], [113.0, 223.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}

// scatter of scalars at swapped 2-D coordinates, i64 indices, one masked off.
func.func @scatter_swapped_map_with_mask() {
  %orig = util.unfoldable_constant dense<0> : tensor<2x3xi32>
  %upd = util.unfoldable_constant dense<[7, 8, 9]> : tensor<3xi32>
  %idx = util.unfoldable_constant dense<[[2, 1], [0, 0], [1, 1]]> : tensor<3x2xi64>
  %mask = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>
  %r = iree_linalg_ext.scatter dimension_map = [1, 0] unique_indices(true)
      ins(%upd, %idx, %mask : tensor<3xi32>, tensor<3x2xi64>, tensor<3xi1>) outs(%orig : tensor<2x3xi32>) {
    ^bb0(%u: i32, %o: i32):
      iree_linalg_ext.yield %u : i32
  } -> tensor<2x3xi32>
  check.expect_eq_const(%r, dense<[[0, 0, 0], [0, 9, 7]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// gather rows by a batch of indices (an embedding lookup).
func.func @gather_rows() {
  %table = util.unfoldable_constant dense<[[0.0, 0.5], [1.0, 1.5], [2.0, 2.5], [3.0, 3.5]]> : tensor<4x2xf32>
  %idx = util.unfoldable_constant dense<[3, 0, 3, 1, 2]> : tensor<5xi32>
  %empty = tensor.empty() : tensor<5x2xf32>
  %r = iree_linalg_ext.gather dimension_map = [0]
      ins(%table, %idx : tensor<4x2xf32>, tensor<5xi32>) outs(%empty : tensor<5x2xf32>) -> tensor<5x2xf32>
  check.expect_almost_eq_const(%r, dense<[[3.0, 3.5], [0.0, 0.5], [3.0, 3.5], [1.0, 1.5], [2.0, 2.5]]> : tensor<5x2xf32>) : tensor<5x2xf32>
  return
}

// masked gather of elements at 2-D coordinates: a masked-off entry keeps the output's value
// (its coordinates are out of bounds and must not be read).
func.func @gather_masked_points() {
  %src = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %idx = util.unfoldable_constant dense<[[1, 2], [7, 9], [0, 1]]> : tensor<3x2xi32>
  %mask = util.unfoldable_constant dense<[true, false, true]> : tensor<3xi1>
  %init = util.unfoldable_constant dense<-1> : tensor<3xi32>
  %r = iree_linalg_ext.gather dimension_map = [0, 1]
      ins(%src, %idx, %mask : tensor<2x3xi32>, tensor<3x2xi32>, tensor<3xi1>) outs(%init : tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const(%r, dense<[6, -1, 2]> : tensor<3xi32>) : tensor<3xi32>
  return
}
