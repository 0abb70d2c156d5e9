// FOUND: test_elementwise_chains_with_broadcasts, long profile (shrunk by hand): a tensor<1xf32> broadcast along the unit dim of a 1x1x4 tensor
func.func @f(%arg0: tensor<1x1x4xf32>, %arg1: tensor<1xf32>) -> tensor<1x1x4xf32> {
  %e = tensor.empty() : tensor<1x1x4xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<1x1x4xf32>, tensor<1xf32>) outs(%e : tensor<1x1x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %r = arith.maximumf %in, %in_0 : f32
    linalg.yield %r : f32
  } -> tensor<1x1x4xf32>
  return %v : tensor<1x1x4xf32>
}
