func.func @ins(%a: tensor<8x16xf32>, %b: tensor<2x16xf32>) -> tensor<8x16xf32> {
  %u = tensor.insert_slice %b into %a[3, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  return %u : tensor<8x16xf32>
}
