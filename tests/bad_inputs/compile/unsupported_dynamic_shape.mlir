// CASE: a dynamically shaped argument reaching an op that does not carry `?` sizes yet
// EXPECT: 5:3: error: [input] dynamic shape tensor<1x2x?x?xf32> of 'linalg.conv_2d_nchw_fchw' is not supported yet
func.func @f(%a: tensor<1x2x6x6xf32>, %w: tensor<2x2x?x?xf32>, %o: tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32> {
  // a convolution over a `?` filter window (`?` batch, image, channel and filter counts are carried)
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %w : tensor<1x2x6x6xf32>, tensor<2x2x?x?xf32>) outs(%o : tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
  return %0 : tensor<1x2x?x?xf32>
}
