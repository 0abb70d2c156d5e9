// linalg.pooling_nhwc_max, 2x2 window, stride 2: the window is a shape-only tensor.empty.
func.func @pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %w = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
