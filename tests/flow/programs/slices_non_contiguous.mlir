func.func @slices(%a: tensor<8x16xf32>, %b: tensor<2x4xf32>) -> (tensor<4x8xf32>, tensor<8x16xf32>) {
  %s = tensor.extract_slice %a[2, 4] [4, 8] [1, 1] : tensor<8x16xf32> to tensor<4x8xf32>
  %u = tensor.insert_slice %b into %a[1, 2] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x16xf32>
  return %s, %u : tensor<4x8xf32>, tensor<8x16xf32>
}
