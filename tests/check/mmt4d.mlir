// linalg.mmt4d, the matmul of IREE's data tiling: pack the lhs (M x K into M1 x K1 x 16 x 1
// tiles) and the transposed rhs (N x K into N1 x K1 x 16 x 1), multiply tile by tile, unpack
// the result; it equals linalg.matmul, also when the sizes are not multiples of the tiles.

func.func @data_tiled_matmul_matches_matmul_f32() {
  %lhs = util.unfoldable_constant dense<[[1.0, 2.0, -1.0], [0.5, 0.0, 3.0], [2.0, -2.0, 1.0], [1.0, 1.0, 1.0], [0.0, 4.0, -0.5]]> : tensor<5x3xf32>
  %rhs = util.unfoldable_constant dense<[[1.0, 0.0, 2.0, -1.0, 0.5, 3.0, 1.0], [0.0, 1.0, 1.0, 2.0, -1.0, 0.0, 0.25], [2.0, -1.0, 0.0, 1.0, 1.0, 1.0, -2.0]]> : tensor<3x7xf32>
  %zero = arith.constant 0.0 : f32
  %lhs_empty = tensor.empty() : tensor<1x3x16x1xf32>
  %lhs_packed = linalg.pack %lhs padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [16, 1]
      into %lhs_empty : tensor<5x3xf32> -> tensor<1x3x16x1xf32>
  %rhs_empty = tensor.empty() : tensor<1x3x16x1xf32>
  %rhs_packed = linalg.pack %rhs padding_value(%zero : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]
      inner_tiles = [16, 1] into %rhs_empty : tensor<3x7xf32> -> tensor<1x3x16x1xf32>
  %acc_empty = tensor.empty() : tensor<1x1x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc_empty : tensor<1x1x16x16xf32>) -> tensor<1x1x16x16xf32>
  %tiled = linalg.mmt4d ins(%lhs_packed, %rhs_packed : tensor<1x3x16x1xf32>, tensor<1x3x16x1xf32>)
      outs(%acc : tensor<1x1x16x16xf32>) -> tensor<1x1x16x16xf32>
  %out_empty = tensor.empty() : tensor<5x7xf32>
  %result = linalg.unpack %tiled inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %out_empty
      : tensor<1x1x16x16xf32> -> tensor<5x7xf32>
  %mm_empty = tensor.empty() : tensor<5x7xf32>
  %mm_init = linalg.fill ins(%zero : f32) outs(%mm_empty : tensor<5x7xf32>) -> tensor<5x7xf32>
  %expected = linalg.matmul ins(%lhs, %rhs : tensor<5x3xf32>, tensor<3x7xf32>) outs(%mm_init : tensor<5x7xf32>) -> tensor<5x7xf32>
  check.expect_almost_eq(%result, %expected) : tensor<5x7xf32>
  check.expect_almost_eq_const(%result, dense<[[-1.0, 3.0, 4.0, 2.0, -2.5, 2.0, 3.5], [6.5, -3.0, 1.0, 2.5, 3.25, 4.5, -5.5], [4.0, -3.0, 2.0, -5.0, 4.0, 7.0, -0.5], [3.0, 0.0, 3.0, 2.0, 0.5, 4.0, -0.75], [-1.0, 4.5, 4.0, 7.5, -4.5, -0.5, 2.0]]> : tensor<5x7xf32>) : tensor<5x7xf32>
  return
}

// Several tiles in every dim (M1 = 3, N1 = 2, K1 = 40), accumulating into a non-zero init.
func.func @mmt4d_accumulates_over_tiles_f32() {
  %lhs = util.unfoldable_constant dense<0.25> : tensor<3x40x8x1xf32>
  %rhs = util.unfoldable_constant dense<2.0> : tensor<2x40x4x1xf32>
  %init = util.unfoldable_constant dense<1.0> : tensor<3x2x8x4xf32>
  %r = linalg.mmt4d ins(%lhs, %rhs : tensor<3x40x8x1xf32>, tensor<2x40x4x1xf32>)
      outs(%init : tensor<3x2x8x4xf32>) -> tensor<3x2x8x4xf32>
  check.expect_almost_eq_const(%r, dense<21.0> : tensor<3x2x8x4xf32>) : tensor<3x2x8x4xf32>
  return
}

// i8 x i8 -> i32 (signed extension, as MLIR's mmt4d), with K0 = 2 tiles.
func.func @mmt4d_i8_i32() {
  %lhs = util.unfoldable_constant dense<[[[[1, -2], [3, 4]]]]> : tensor<1x1x2x2xi8>
  %rhs = util.unfoldable_constant dense<[[[[-128, 1], [2, 127]]]]> : tensor<1x1x2x2xi8>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<1x1x2x2xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%empty : tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32>
  %r = linalg.mmt4d ins(%lhs, %rhs : tensor<1x1x2x2xi8>, tensor<1x1x2x2xi8>)
      outs(%acc : tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32>
  check.expect_eq_const(%r, dense<[[[[-130, -252], [-380, 514]]]]> : tensor<1x1x2x2xi32>) : tensor<1x1x2x2xi32>
  return
}
