// CASE: a named op with one input where two are needed, which xDSL's parser trips over, names the op
// EXPECT: 4:8: error: 'linalg.batch_matmul' in this form cannot be parsed (IndexError: tuple index out of range)
func.func @f(%a: tensor<2x3x4xf32>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %r = linalg.batch_matmul ins(%a : tensor<2x3x4xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}
