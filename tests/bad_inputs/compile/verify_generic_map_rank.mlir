// CASE: an indexing map with fewer results than its operand's rank
// EXPECT: 5:3: error: [input] expected operand #0 of rank 2 to match the result count of indexing_map #0, 1
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
