func.func @mix(%a: tensor<?x4xf32>, %b: tensor<3x4xf32>) -> (tensor<?x4xf32>, tensor<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%d) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<?x4xf32>
  %e2 = tensor.empty() : tensor<3x4xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<3x4xf32>) outs(%e2 : tensor<3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.addf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<3x4xf32>
  return %r, %r2 : tensor<?x4xf32>, tensor<3x4xf32>
}
