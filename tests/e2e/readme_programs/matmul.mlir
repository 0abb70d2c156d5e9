// linalg.matmul on a zero-filled accumulator.
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x12xf32>) -> tensor<8x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x12xf32>) -> tensor<8x12xf32>
  %c = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x12xf32>) outs(%f : tensor<8x12xf32>) -> tensor<8x12xf32>
  return %c : tensor<8x12xf32>
}
