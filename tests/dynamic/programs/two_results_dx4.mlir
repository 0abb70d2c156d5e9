func.func @two(%a: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%d) : tensor<?x4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x4xf32>) outs(%e, %e : tensor<?x4xf32>, tensor<?x4xf32>) {
  ^bb0(%x: f32, %o: f32, %p: f32):
    %m = arith.mulf %x, %x : f32
    %n = arith.addf %x, %x : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<?x4xf32>, tensor<?x4xf32>)
  return %r#0, %r#1 : tensor<?x4xf32>, tensor<?x4xf32>
}
