// linalg.batch_matmul with MLIR's indexing_maps: B read transposed, checked against the default
// form on an explicitly transposed B, and against values worked out by hand.

func.func @transposed_b_matches_explicit_transpose() {
  %a = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]]> : tensor<2x2x2xf32>
  %bt = util.unfoldable_constant dense<[[[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]], [[2.0, 1.0], [0.0, 1.0], [1.0, 1.0]]]> : tensor<2x3x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %mapped = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %bt : tensor<2x2x2xf32>, tensor<2x3x2xf32>)
      outs(%init : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %t_empty = tensor.empty() : tensor<2x2x3xf32>
  %b = linalg.transpose ins(%bt : tensor<2x3x2xf32>) outs(%t_empty : tensor<2x2x3xf32>) permutation = [0, 2, 1]
  %plain = linalg.batch_matmul ins(%a, %b : tensor<2x2x2xf32>, tensor<2x2x3xf32>)
      outs(%init : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  check.expect_almost_eq(%mapped, %plain) : tensor<2x2x3xf32>
  check.expect_almost_eq_const(%mapped, dense<[[[1.0, 3.0, 4.0], [3.0, 7.0, 8.0]], [[0.0, -1.0, -0.5], [4.0, 0.0, 2.0]]]> : tensor<2x2x3xf32>) : tensor<2x2x3xf32>
  return
}
