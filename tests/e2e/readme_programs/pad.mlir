// tensor.pad with a constant value, low and high padding differing per dimension.
func.func @pad(%a: tensor<3x5xf32>) -> tensor<6x8xf32> {
  %v = arith.constant -1.5 : f32
  %p = tensor.pad %a low[1, 2] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x5xf32> to tensor<6x8xf32>
  return %p : tensor<6x8xf32>
}
