// linalg.batch_matmul, batch 3.
func.func @bmm(%a: tensor<3x4x8xf32>, %b: tensor<3x8x6xf32>) -> tensor<3x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4x6xf32>) -> tensor<3x4x6xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x4x8xf32>, tensor<3x8x6xf32>) outs(%f : tensor<3x4x6xf32>) -> tensor<3x4x6xf32>
  return %c : tensor<3x4x6xf32>
}
