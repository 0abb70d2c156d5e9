// A grouped convolution over a `?` height and width, two groups of two channels, filter `g`
// after `f`, stride 2.
func.func @conv(%x: tensor<1x2x2x?x?xf32>, %w: tensor<3x2x2x3x3xf32>) -> tensor<1x2x3x?x?xf32> {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %ih = tensor.dim %x, %c3 : tensor<1x2x2x?x?xf32>
  %iw = tensor.dim %x, %c4 : tensor<1x2x2x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%oh, %ow) : tensor<1x2x3x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x?x?xf32>) -> tensor<1x2x3x?x?xf32>
  %0 = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x2x2x?x?xf32>, tensor<3x2x2x3x3xf32>) outs(%o : tensor<1x2x3x?x?xf32>) -> tensor<1x2x3x?x?xf32>
  return %0 : tensor<1x2x3x?x?xf32>
}
