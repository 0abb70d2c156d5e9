// A standalone rotation of the dims ([2, 0, 1]) written as a generic that reads its input
// through the permutation: after the interchange the input map is the identity, the output
// map (d2, d0, d1), and CollapseDimensions merges d0 and d1 (contiguous in both): transpose_6x4.
func.func @rotate(%x: tensor<2x3x5xf32>) -> tensor<5x2x3xf32> {
  %e = tensor.empty() : tensor<5x2x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x5xf32>) outs(%e : tensor<5x2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<5x2x3xf32>
  return %t : tensor<5x2x3xf32>
}
