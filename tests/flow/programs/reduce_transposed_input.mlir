// Row sums of the transpose of a 6x10 matrix, written as one generic reading its input through
// (d0, d1) -> (d1, d0) with the reduction loop d1 already innermost: the pass leaves it, and
// the dispatch is reduction_10x6_f32.
func.func @reduce_transposed_input(%x: tensor<6x10xf32>) -> tensor<10xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x10xf32>) outs(%f : tensor<10xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<10xf32>
  return %s : tensor<10xf32>
}
