// FOUND: random program (shrunk by hand): a sum over the non-unit dim of a 3x1 tensor
func.func @f(%arg0: tensor<3x1xf32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1xf32>
  %c = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%c : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<3x1xf32>) outs(%fill : tensor<1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %v : tensor<1xf32>
}
