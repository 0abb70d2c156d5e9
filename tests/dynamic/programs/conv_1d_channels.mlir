// A 1-D convolution (torch's Conv1d) where every size but the window is `?`: batch,
// channels, filters and length, strided and dilated by 2.
func.func @conv(%a: tensor<?x?x?xf32>, %w: tensor<?x?x3xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %a, %c0 : tensor<?x?x?xf32>
  %f = tensor.dim %w, %c0 : tensor<?x?x3xf32>
  %iw = tensor.dim %a, %c2 : tensor<?x?x?xf32>
  %ow = affine.apply affine_map<()[s0] -> ((s0 - 5) floordiv 2 + 1)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n, %f, %ow) : tensor<?x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%a, %w : tensor<?x?x?xf32>, tensor<?x?x3xf32>) outs(%o : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
