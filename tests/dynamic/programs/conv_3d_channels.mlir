// A 3-D convolution over a `?` input channel and filter count, static volume.
func.func @conv(%a: tensor<1x?x5x6x7xf32>, %w: tensor<?x?x2x2x2xf32>) -> tensor<1x?x4x5x6xf32> {
  %c0 = arith.constant 0 : index
  %f = tensor.dim %w, %c0 : tensor<?x?x2x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%f) : tensor<1x?x4x5x6xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x4x5x6xf32>) -> tensor<1x?x4x5x6xf32>
  %r = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%a, %w : tensor<1x?x5x6x7xf32>, tensor<?x?x2x2x2xf32>) outs(%o : tensor<1x?x4x5x6xf32>) -> tensor<1x?x4x5x6xf32>
  return %r : tensor<1x?x4x5x6xf32>
}
