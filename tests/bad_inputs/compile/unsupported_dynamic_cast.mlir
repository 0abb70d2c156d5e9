// CASE: a static tensor cast to a dynamic type and back
// EXPECT: 4:3: error: [input] dynamic shape tensor<?xf32> of 'tensor.cast' is not supported yet
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %d = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %s = tensor.cast %d : tensor<?xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
