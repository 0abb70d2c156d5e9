// linalg.pooling_nhwc_sum, 3x2 window, strides 1x2, dilations 2x1, batch 2.
func.func @pool(%x: tensor<2x9x8x3xf32>) -> tensor<2x5x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %w = tensor.empty() : tensor<3x2xf32>
  %e = tensor.empty() : tensor<2x5x4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x4x3xf32>) -> tensor<2x5x4x3xf32>
  %p = linalg.pooling_nhwc_sum {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%x, %w : tensor<2x9x8x3xf32>, tensor<3x2xf32>) outs(%f : tensor<2x5x4x3xf32>) -> tensor<2x5x4x3xf32>
  return %p : tensor<2x5x4x3xf32>
}
