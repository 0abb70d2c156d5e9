// A channels-first depthwise convolution over a `?` height and width, dilated 2.
func.func @conv(%x: tensor<1x3x?x?xf32>, %w: tensor<3x3x3xf32>) -> tensor<1x3x?x?xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ih = tensor.dim %x, %c2 : tensor<1x3x?x?xf32>
  %iw = tensor.dim %x, %c3 : tensor<1x3x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> (s0 - 4)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 4)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%oh, %ow) : tensor<1x3x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x?x?xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}
