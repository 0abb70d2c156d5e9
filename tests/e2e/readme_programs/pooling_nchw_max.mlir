// linalg.pooling_nchw_max, 2x3 window, strides 2x1, dilations 1x2.
func.func @pool(%x: tensor<1x3x8x9xf32>) -> tensor<1x3x4x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %w = tensor.empty() : tensor<2x3xf32>
  %e = tensor.empty() : tensor<1x3x4x5xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x3x8x9xf32>, tensor<2x3xf32>) outs(%f : tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %p : tensor<1x3x4x5xf32>
}
