// linalg.fill with a scalar argument, into a tensor.empty.
func.func @fill(%s: f32) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
