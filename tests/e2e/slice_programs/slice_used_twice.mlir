func.func @twice(%a: tensor<8x16xf32>) -> (tensor<2x16xf32>, tensor<8x16xf32>) {
  %s = tensor.extract_slice %a[4, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
  %u = tensor.insert_slice %s into %a[0, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  %v = tensor.insert_slice %s into %u[6, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  return %s, %v : tensor<2x16xf32>, tensor<8x16xf32>
}
