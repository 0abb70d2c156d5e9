func.func @r(%a: tensor<4x8x16xf32>) -> tensor<2x8xf32> {
  %s = tensor.extract_slice %a[1, 0, 0] [2, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<2x8x16xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x8x16xf32>) outs(%f : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<2x8xf32>
  return %x : tensor<2x8xf32>
}
