func.func @rc(%a: tensor<4x6x8xf32>) -> tensor<2x6x4xf32> {
  %s = tensor.extract_slice %a[1, 0, 2] [2, 6, 4] [1, 1, 1] : tensor<4x6x8xf32> to tensor<2x6x4xf32>
  %e = tensor.empty() : tensor<2x6x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x6x4xf32>) outs(%e : tensor<2x6x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<2x6x4xf32>
  return %x : tensor<2x6x4xf32>
}
