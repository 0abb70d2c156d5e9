// A channels-first 2-D convolution over a `?` input channel count (in the image and the
// filter) into a static result: the dispatch reduces over a run-time extent.
func.func @conv(%x: tensor<1x?x7x7xf32>, %w: tensor<3x?x3x3xf32>) -> tensor<1x3x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x5x5xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x?x7x7xf32>, tensor<3x?x3x3xf32>) outs(%o : tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  return %0 : tensor<1x3x5x5xf32>
}
