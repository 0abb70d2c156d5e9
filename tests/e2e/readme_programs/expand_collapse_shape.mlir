// tensor.expand_shape and tensor.collapse_shape around an elementwise op.
func.func @reshape(%a: tensor<4x6xf32>) -> (tensor<2x2x6xf32>, tensor<24xf32>) {
  %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf32> into tensor<2x2x6xf32>
  %e = tensor.empty() : tensor<2x2x6xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x2x6xf32>) outs(%e : tensor<2x2x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %z = arith.mulf %v, %v : f32
    linalg.yield %z : f32
  } -> tensor<2x2x6xf32>
  %c = tensor.collapse_shape %y [[0, 1, 2]] : tensor<2x2x6xf32> into tensor<24xf32>
  return %y, %c : tensor<2x2x6xf32>, tensor<24xf32>
}
