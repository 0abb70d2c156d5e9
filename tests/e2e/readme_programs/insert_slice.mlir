// tensor.insert_slice into an argument (copied first) and into a computed tensor.
func.func @insert(%a: tensor<6x8xf32>, %b: tensor<2x3xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
  %e = tensor.empty() : tensor<6x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp %v : f32
    linalg.yield %y : f32
  } -> tensor<6x8xf32>
  %i = tensor.insert_slice %b into %a[1, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x8xf32>
  %j = tensor.insert_slice %b into %x[3, 4] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x8xf32>
  return %i, %j : tensor<6x8xf32>, tensor<6x8xf32>
}
