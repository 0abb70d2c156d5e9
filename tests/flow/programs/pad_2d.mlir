func.func @pad(%a: tensor<4x6xf32>) -> tensor<6x10xf32> {
  %c = arith.constant 0.0 : f32
  %p = tensor.pad %a low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x6xf32> to tensor<6x10xf32>
  return %p : tensor<6x10xf32>
}
