#m = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather(%table: tensor<8xf32>, %b: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %s = arith.addi %i0, %i1 : index
    %c8 = arith.constant 8 : index
    %k = arith.remui %s, %c8 : index
    %t = tensor.extract %table[%k] : tensor<8xf32>
    %m2 = arith.mulf %i, %t : f32
    linalg.yield %m2 : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
