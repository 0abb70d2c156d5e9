func.func @conv(%x: tensor<1x3x10x10xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}
