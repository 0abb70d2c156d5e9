// A channels-first 2-D convolution where every size but the filter window is `?`: batch,
// input channels, filters and image, strided along the height and dilated along the width.
func.func @conv(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x3x3xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %f = tensor.dim %w, %c0 : tensor<?x?x3x3xf32>
  %ih = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %iw = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 4)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n, %f, %oh, %ow) : tensor<?x?x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<?x?x?x?xf32>, tensor<?x?x3x3xf32>) outs(%o : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}
