// CASE: a linalg named op ireelab does not define (linalg.batch_reduce_matmul)
// EXPECT: 5:8: error: unknown operation 'linalg.batch_reduce_matmul': dialect 'linalg' has no such op
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
