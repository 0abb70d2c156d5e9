// CASE: an indexing map over more loops than the op has
// EXPECT: 5:3: error: [input] expected indexing_map #0 to have 2 dim(s) to match the number of loops
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
