func.func @pad3(%a: tensor<2x3x4xf32>, %b: tensor<2x3x2xf32>, %c: tensor<2x3x1xf32>) -> (tensor<5x4x7xf32>, tensor<2x3x7xf32>) {
  %v = arith.constant -2.5 : f32
  %p = tensor.pad %a low[1, 0, 2] high[2, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %v : f32
  } : tensor<2x3x4xf32> to tensor<5x4x7xf32>
  %r = tensor.concat dim(2) %a, %b, %c : (tensor<2x3x4xf32>, tensor<2x3x2xf32>, tensor<2x3x1xf32>) -> tensor<2x3x7xf32>
  return %p, %r : tensor<5x4x7xf32>, tensor<2x3x7xf32>
}
