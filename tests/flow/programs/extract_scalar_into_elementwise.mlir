#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @ex(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = tensor.extract %a[%c1, %c2] : tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m2 = arith.mulf %i, %s : f32
    linalg.yield %m2 : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
