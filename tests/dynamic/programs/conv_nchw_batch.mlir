// A convolution over a `?` batch, as ONNX exports a CNN with a dynamic batch: the output
// is `tensor.empty(%n)` filled with zero, the batch read from the input's shape.
func.func @conv(%x: tensor<?x2x6x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<?x3x4x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x6x6xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x3x4x4xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%o : tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  return %0 : tensor<?x3x4x4xf32>
}
