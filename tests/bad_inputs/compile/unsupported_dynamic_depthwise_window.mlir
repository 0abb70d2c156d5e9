// CASE: a depthwise convolution over a `?` filter window (`?` batch, image and channel counts are carried; the window is not)
// EXPECT: 4:3: error: [input] dynamic shape tensor<1x4x?x?xf32> of 'linalg.depthwise_conv_2d_nchw_chw' is not supported yet
func.func @f(%x: tensor<1x4x6x6xf32>, %w: tensor<4x?x?xf32>, %o: tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x?x?xf32>) outs(%o : tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32>
  return %0 : tensor<1x4x?x?xf32>
}
