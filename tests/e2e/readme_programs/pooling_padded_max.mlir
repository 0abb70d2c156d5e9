// A 3x3 max pool, stride 2, padding 1: tensor.pad with -inf first, as frameworks emit it.
func.func @pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %w : tensor<1x10x10x4xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
