// CASE: two operands give one loop two different extents
// EXPECT: 5:3: error: [input] inferred input/output operand #1 has shape's dimension #1 to be 3, but found 4
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
