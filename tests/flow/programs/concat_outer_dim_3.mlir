func.func @concat0(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<1x4xf32>) -> tensor<6x4xf32> {
  %r = tensor.concat dim(0) %a, %b, %c : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
