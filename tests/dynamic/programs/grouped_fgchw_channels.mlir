// A grouped convolution (filters f, g, c) over `?` group, channel and filter counts.
func.func @conv(%a: tensor<1x?x?x6x6xf32>, %w: tensor<?x?x?x3x3xf32>) -> tensor<1x?x?x4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = tensor.dim %w, %c0 : tensor<?x?x?x3x3xf32>
  %g = tensor.dim %a, %c1 : tensor<1x?x?x6x6xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%g, %f) : tensor<1x?x?x4x4xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x4x4xf32>) -> tensor<1x?x?x4x4xf32>
  %r = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %w : tensor<1x?x?x6x6xf32>, tensor<?x?x?x3x3xf32>) outs(%o : tensor<1x?x?x4x4xf32>) -> tensor<1x?x?x4x4xf32>
  return %r : tensor<1x?x?x4x4xf32>
}
