// linalg.pooling_nchw_sum, 2x2 window, stride 2, batch 2.
func.func @pool(%x: tensor<2x4x6x6xf32>) -> tensor<2x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %w = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x4x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<2x4x6x6xf32>, tensor<2x2xf32>) outs(%f : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %p : tensor<2x4x3x3xf32>
}
