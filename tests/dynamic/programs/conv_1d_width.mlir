// A 1-D channels-first convolution over a `?` width, strided and dilated: the result's
// width is the program's own arithmetic on the image's, (w - 5) floordiv 2 + 1.
func.func @conv(%x: tensor<1x2x?xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x?xf32> {
  %c2 = arith.constant 2 : index
  %iw = tensor.dim %x, %c2 : tensor<1x2x?xf32>
  %ow = affine.apply affine_map<()[s0] -> ((s0 - 5) floordiv 2 + 1)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%ow) : tensor<1x4x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x?xf32>) -> tensor<1x4x?xf32>
  %0 = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%x, %w : tensor<1x2x?xf32>, tensor<4x2x3xf32>) outs(%o : tensor<1x4x?xf32>) -> tensor<1x4x?xf32>
  return %0 : tensor<1x4x?xf32>
}
