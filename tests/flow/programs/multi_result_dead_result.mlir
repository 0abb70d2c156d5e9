// A three-result row reduction (written in MLIR's generic op form) whose first result, a sum of
// products, is unused: the result, its accumulation and its init go (isResultValueDead after
// RemoveUnusedCycleInGenericOp), the two live reductions stay in one dispatch.
func.func @multi_dead(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %acc: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %fr = linalg.fill ins(%c0 : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %r:3 = "linalg.generic"(%a, %b, %acc, %fr, %fr) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], operandSegmentSizes = array<i32: 2, 3>}> ({
  ^bb0(%x: f32, %y: f32, %dot: f32, %mx: f32, %sum: f32):
    %p = arith.mulf %x, %y : f32
    %d = arith.addf %p, %dot : f32
    %m = arith.maximumf %mx, %y : f32
    %s = arith.addf %sum, %x : f32
    linalg.yield %d, %m, %s : f32, f32, f32
  }) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  %e2 = tensor.empty() : tensor<8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r#1 : tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = arith.negf %v : f32
    linalg.yield %w : f32
  } -> tensor<8xf32>
  return %n, %r#2 : tensor<8xf32>, tensor<8xf32>
}
