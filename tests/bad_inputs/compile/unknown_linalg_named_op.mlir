// CASE: a linalg named op ireelab does not define (linalg.softmax)
// EXPECT: 5:8: error: unknown operation 'linalg.softmax': dialect 'linalg' has no such op
func.func @f(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
