// CASE: an iterator type that is neither parallel nor reduction
// EXPECT: 5:23: error: linalg.generic: unknown iterator type "sideways"
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["sideways"]} ins(%a : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
