// CASE: a named op in a form xDSL's parser trips over (batch_matmul with indexing_maps) names the op
// EXPECT: 5:8: error: 'linalg.batch_matmul' in this form cannot be parsed (IndexError: tuple index out of range)
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // the second operand is transposed through its map
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%a, %b : tensor<2x3x4xf32>, tensor<2x5x4xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}
