// conv_2d_nchw_fchw straight into a 2x2 sum pool with stride 2.
func.func @block(%x: tensor<1x2x6x6xf32>, %k: tensor<4x2x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<1x4x4x4xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%fc : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<1x4x2x2xf32>
  %fp = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%c, %w : tensor<1x4x4x4xf32>, tensor<2x2xf32>) outs(%fp : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %p : tensor<1x4x2x2xf32>
}
