func.func @scale(%x: tensor<6xf32>, %s: tensor<f32>) -> tensor<6xf32> {
  %d = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<f32>) outs(%x : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %out, %in : f32
    linalg.yield %q : f32
  } -> tensor<6xf32>
  return %d : tensor<6xf32>
}
