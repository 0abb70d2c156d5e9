// A channels-first depthwise convolution (ONNX's Conv with a group per channel) over a
// `?` batch, channel count and image, dilation 2.
func.func @conv(%x: tensor<?x?x?x?xf32>, %w: tensor<?x3x3xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %ch = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %ih = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %iw = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> (s0 - 4)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 4)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n, %ch, %oh, %ow) : tensor<?x?x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x?x?x?xf32>, tensor<?x3x3xf32>) outs(%o : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}
