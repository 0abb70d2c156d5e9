// linalg.conv_2d_nchw_fchw with strides 1 and dilations 2.
func.func @conv(%x: tensor<2x3x8x8xf32>, %k: tensor<4x3x2x2xf32>) -> tensor<2x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<2x3x8x8xf32>, tensor<4x3x2x2xf32>) outs(%f : tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
  return %c : tensor<2x4x6x6xf32>
}
