// CASE: a depthwise convolution over a `?` channel count (a `?` batch and `?` image sizes are carried; channels are not)
// EXPECT: 4:3: error: [input] dynamic shape tensor<1x?x4x4xf32> of 'linalg.depthwise_conv_2d_nchw_chw' is not supported yet
func.func @f(%x: tensor<1x?x6x6xf32>, %w: tensor<?x3x3xf32>, %o: tensor<1x?x4x4xf32>) -> tensor<1x?x4x4xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x?x6x6xf32>, tensor<?x3x3xf32>) outs(%o : tensor<1x?x4x4xf32>) -> tensor<1x?x4x4xf32>
  return %0 : tensor<1x?x4x4xf32>
}
