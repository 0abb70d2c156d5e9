// A grouped convolution over a `?` batch, two groups of two channels, filter `g` after `f`.
func.func @conv(%x: tensor<?x2x2x5x5xf32>, %w: tensor<3x2x2x3x3xf32>) -> tensor<?x2x3x3x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x2x5x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x2x3x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2x3x3x3xf32>) -> tensor<?x2x3x3x3xf32>
  %0 = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x2x2x5x5xf32>, tensor<3x2x2x3x3xf32>) outs(%o : tensor<?x2x3x3x3xf32>) -> tensor<?x2x3x3x3xf32>
  return %0 : tensor<?x2x3x3x3xf32>
}
