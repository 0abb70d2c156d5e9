// A 1-D convolution over a `?` width accumulating into an argument of its own `?` width: the
// dispatch's workload is both widths (iree-compile's `[%0, %3]`), the image's first.
func.func @t(%a: tensor<1x1x?xf32>, %w: tensor<1x1x3xf32>, %o: tensor<1x1x?xf32>) -> tensor<1x1x?xf32> {
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a, %w : tensor<1x1x?xf32>, tensor<1x1x3xf32>) outs(%o : tensor<1x1x?xf32>) -> tensor<1x1x?xf32>
  return %r : tensor<1x1x?xf32>
}
