// tensor.concat on the outer and on the inner dimension.
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x5xf32>) -> (tensor<6x3xf32>, tensor<2x8xf32>) {
  %outer = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %inner = tensor.concat dim(1) %a, %c : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %outer, %inner : tensor<6x3xf32>, tensor<2x8xf32>
}
