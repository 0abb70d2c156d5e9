func.func @ins_ew(%a: tensor<6x8xf32>, %b: tensor<2x3xf32>) -> tensor<6x8xf32> {
  %e0 = tensor.empty() : tensor<6x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<6x8xf32>) outs(%e0 : tensor<6x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<6x8xf32>
  %u = tensor.insert_slice %b into %x[1, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x8xf32>
  return %u : tensor<6x8xf32>
}
