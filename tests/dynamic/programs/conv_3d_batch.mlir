// A 3-D channels-first convolution over a `?` batch.
func.func @conv(%x: tensor<?x2x4x4x4xf32>, %w: tensor<3x2x2x2x2xf32>) -> tensor<?x3x3x3x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x4x4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x3x3x3x3xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3x3x3x3xf32>) -> tensor<?x3x3x3x3xf32>
  %0 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%x, %w : tensor<?x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) outs(%o : tensor<?x3x3x3x3xf32>) -> tensor<?x3x3x3x3xf32>
  return %0 : tensor<?x3x3x3x3xf32>
}
