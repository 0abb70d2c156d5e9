// A channels-last depthwise convolution over a `?` batch, strided (MobileNet's layout in TF).
func.func @conv(%x: tensor<?x7x7x3xf32>, %w: tensor<3x3x3xf32>) -> tensor<?x3x3x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x7x7x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x3x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3x3x3xf32>) -> tensor<?x3x3x3xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<?x7x7x3xf32>, tensor<3x3x3xf32>) outs(%o : tensor<?x3x3x3xf32>) -> tensor<?x3x3x3xf32>
  return %0 : tensor<?x3x3x3xf32>
}
