func.func @concat(%a: tensor<4x6xf32>, %b: tensor<4x3xf32>) -> tensor<4x9xf32> {
  %r = tensor.concat dim(1) %a, %b : (tensor<4x6xf32>, tensor<4x3xf32>) -> tensor<4x9xf32>
  return %r : tensor<4x9xf32>
}
