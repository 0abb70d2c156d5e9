// A 3-D 2x2x2 max pool (stride 1) over a `?` batch, channels last.
func.func @pool(%x: tensor<?x4x4x4x2xf32>) -> tensor<?x3x3x3x2xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x4x4x2xf32>
  %low = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty(%n) : tensor<?x3x3x3x2xf32>
  %o = linalg.fill ins(%low : f32) outs(%e : tensor<?x3x3x3x2xf32>) -> tensor<?x3x3x3x2xf32>
  %win = tensor.empty() : tensor<2x2x2xf32>
  %0 = linalg.pooling_ndhwc_max {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%x, %win : tensor<?x4x4x4x2xf32>, tensor<2x2x2xf32>) outs(%o : tensor<?x3x3x3x2xf32>) -> tensor<?x3x3x3x2xf32>
  return %0 : tensor<?x3x3x3x2xf32>
}
