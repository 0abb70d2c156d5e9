#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @spc(%b: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %x = arith.constant 2.5 : f32
  %sp = tensor.splat %x : tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#m, #m, #m], iterator_types = ["parallel", "parallel"]} ins(%b, %sp : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %m2 = arith.mulf %i, %j : f32
    linalg.yield %m2 : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
