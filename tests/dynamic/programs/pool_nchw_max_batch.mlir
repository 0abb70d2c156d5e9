// A 2x2 max pool (stride 2) over a `?` batch, as ONNX's MaxPool with a dynamic batch.
func.func @pool(%x: tensor<?x3x6x6xf32>) -> tensor<?x3x3x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x6x6xf32>
  %low = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty(%n) : tensor<?x3x3x3xf32>
  %o = linalg.fill ins(%low : f32) outs(%e : tensor<?x3x3x3xf32>) -> tensor<?x3x3x3xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<?x3x6x6xf32>, tensor<2x2xf32>) outs(%o : tensor<?x3x3x3xf32>) -> tensor<?x3x3x3xf32>
  return %0 : tensor<?x3x3x3xf32>
}
