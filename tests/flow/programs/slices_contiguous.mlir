func.func @contig(%a: tensor<8x16xf32>, %b: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<8x16xf32>) {
  %s = tensor.extract_slice %a[2, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
  %u = tensor.insert_slice %b into %a[5, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  return %s, %u : tensor<2x16xf32>, tensor<8x16xf32>
}
