func.func @pad_ew(%a: tensor<4x6xf32>) -> tensor<7x9xf32> {
  %c = arith.constant 1.5 : f32
  %e0 = tensor.empty() : tensor<4x6xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  %p = tensor.pad %x low[1, 2] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x6xf32> to tensor<7x9xf32>
  return %p : tensor<7x9xf32>
}
