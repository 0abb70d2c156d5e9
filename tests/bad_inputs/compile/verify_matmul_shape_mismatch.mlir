// CASE: matmul operands whose contraction dimensions differ
// EXPECT: 5:3: error: [input] inferred input/output operand #1 has shape's dimension #0 to be 3, but found 4
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  %e = tensor.empty() : tensor<2x5xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<4x5xf32>) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
