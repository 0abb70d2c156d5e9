func.func @slice_ew(%a: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %s = tensor.extract_slice %a[2, 4] [4, 8] [1, 1] : tensor<8x16xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %x : tensor<4x8xf32>
}
