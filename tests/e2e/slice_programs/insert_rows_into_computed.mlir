func.func @ins_c(%a: tensor<8x16xf32>, %b: tensor<2x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x16xf32>
  %u = tensor.insert_slice %b into %x[3, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
  return %u : tensor<8x16xf32>
}
