// Layer norm over rows of a ?x? input, written as IREE's TOSA import writes it: the mean and
// the reciprocal of the row length are ?x1 tensors collapsed to ? before they are broadcast.
func.func @layernorm(%x: tensor<?x?xf32>, %len: tensor<?x1xf32>) -> tensor<?x?xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%m) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e1 = tensor.empty(%m) : tensor<?x1xf32>
  %rlen2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%len : tensor<?x1xf32>) outs(%e1 : tensor<?x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x1xf32>
  %rlen = tensor.collapse_shape %rlen2 [[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
  %e2 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %centered = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum, %rlen : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %r: f32, %o: f32):
    %mean = arith.mulf %s, %r : f32
    %d = arith.subf %a, %mean : f32
    linalg.yield %d : f32
  } -> tensor<?x?xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%centered : tensor<?x?xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s2 = arith.mulf %a, %a : f32
    %r = arith.addf %s2, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%centered, %sq, %rlen : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %r: f32, %o: f32):
    %var = arith.mulf %s, %r : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %v = arith.mulf %a, %rs : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
