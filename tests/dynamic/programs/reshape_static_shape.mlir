// `tensor.reshape` to a constant shape: the same bytes as 3x2x8, doubled.
func.func @rs(%x: tensor<3x4x2x2xf32>) -> tensor<3x2x8xf32> {
  %shape = arith.constant dense<[3, 2, 8]> : tensor<3xi64>
  %r = tensor.reshape %x(%shape) : (tensor<3x4x2x2xf32>, tensor<3xi64>) -> tensor<3x2x8xf32>
  %e = tensor.empty() : tensor<3x2x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<3x2x8xf32>) outs(%e : tensor<3x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  } -> tensor<3x2x8xf32>
  return %y : tensor<3x2x8xf32>
}
