// A channels-last 3x3 sum pool, dilated 2, over a `?` channel count (static image).
func.func @pool(%x: tensor<1x7x8x?xf32>) -> tensor<1x3x4x?xf32> {
  %c3 = arith.constant 3 : index
  %ch = tensor.dim %x, %c3 : tensor<1x7x8x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%ch) : tensor<1x3x4x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x?xf32>) -> tensor<1x3x4x?xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nhwc_sum {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %window : tensor<1x7x8x?xf32>, tensor<3x3xf32>) outs(%o : tensor<1x3x4x?xf32>) -> tensor<1x3x4x?xf32>
  return %0 : tensor<1x3x4x?xf32>
}
