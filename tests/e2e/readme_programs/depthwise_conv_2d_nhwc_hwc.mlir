// linalg.depthwise_conv_2d_nhwc_hwc, 3x3 window, stride 1.
func.func @conv(%x: tensor<1x6x6x4xf32>, %k: tensor<3x3x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<1x6x6x4xf32>, tensor<3x3x4xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}
