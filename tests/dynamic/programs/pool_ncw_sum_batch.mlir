// A 1-D sum pool (window 3, stride 2) over a `?` batch, as ONNX's 1-D AveragePool with a
// dynamic batch before its division.
func.func @pool(%x: tensor<?x2x9xf32>) -> tensor<?x2x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x2x9xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x2x4xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
  %win = tensor.empty() : tensor<3xf32>
  %0 = linalg.pooling_ncw_sum {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%x, %win : tensor<?x2x9xf32>, tensor<3xf32>) outs(%o : tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
  return %0 : tensor<?x2x4xf32>
}
