func.func @po(%a: tensor<4x3x8xf32>) -> tensor<4x3x8xf32> {
  %c = arith.constant -1.0 : f32
  %s = tensor.extract_slice %a[1, 0, 0] [2, 3, 8] [1, 1, 1] : tensor<4x3x8xf32> to tensor<2x3x8xf32>
  %e = tensor.empty() : tensor<2x3x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<2x3x8xf32>
  %p = tensor.pad %x low[1, 0, 0] high[1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %c : f32
  } : tensor<2x3x8xf32> to tensor<4x3x8xf32>
  return %p : tensor<4x3x8xf32>
}
