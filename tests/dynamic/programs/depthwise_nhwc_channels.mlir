// A channels-last depthwise convolution over a `?` channel count and image, stride 2.
func.func @conv(%x: tensor<1x?x?x?xf32>, %w: tensor<3x3x?xf32>) -> tensor<1x?x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ih = tensor.dim %x, %c1 : tensor<1x?x?x?xf32>
  %iw = tensor.dim %x, %c2 : tensor<1x?x?x?xf32>
  %ch = tensor.dim %x, %c3 : tensor<1x?x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%oh, %ow, %ch) : tensor<1x?x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x?xf32>) -> tensor<1x?x?x?xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x?x?x?xf32>, tensor<3x3x?xf32>) outs(%o : tensor<1x?x?x?xf32>) -> tensor<1x?x?x?xf32>
  return %0 : tensor<1x?x?x?xf32>
}
