// A 1-D channels-first convolution over a `?` batch, dilated.
func.func @conv(%x: tensor<?x2x9xf32>, %w: tensor<4x2x3xf32>) -> tensor<?x4x5xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x9xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x4x5xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  %0 = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%x, %w : tensor<?x2x9xf32>, tensor<4x2x3xf32>) outs(%o : tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}
