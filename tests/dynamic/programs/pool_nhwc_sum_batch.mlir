// A 3x3 sum pool (stride 1) over a `?` batch, channels last.
func.func @pool(%x: tensor<?x5x5x2xf32>) -> tensor<?x3x3x2xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x5x5x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x3x3x2xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3x3x2xf32>) -> tensor<?x3x3x2xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %win : tensor<?x5x5x2xf32>, tensor<3x3xf32>) outs(%o : tensor<?x3x3x2xf32>) -> tensor<?x3x3x2xf32>
  return %0 : tensor<?x3x3x2xf32>
}
