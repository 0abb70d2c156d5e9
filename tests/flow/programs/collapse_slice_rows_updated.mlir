func.func @ru(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = tensor.extract_slice %a[2, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
  %e = tensor.empty() : tensor<2x16xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<2x16xf32>
  %u = tensor.insert_slice %x into %a[5, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  return %u : tensor<8x16xf32>
}
