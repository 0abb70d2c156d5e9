// A 1-D convolution over a `?` window (the filter's width) is not carried yet: refused at
// its line rather than compiled for some fixed size (IREE compiles it).
func.func @t(%a: tensor<1x1x8xf32>, %w: tensor<1x1x?xf32>, %o: tensor<1x1x?xf32>) -> tensor<1x1x?xf32> {
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%a, %w : tensor<1x1x8xf32>, tensor<1x1x?xf32>) outs(%o : tensor<1x1x?xf32>) -> tensor<1x1x?xf32>
  return %r : tensor<1x1x?xf32>
}
