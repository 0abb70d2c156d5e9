// A 2x2 sum pool, stride 2, padding 1 (zeros) on an NCHW tensor.
func.func @pool(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %w : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}
