// Several functions: two public entry points and a private helper called twice.
func.func private @relu(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
func.func @layer(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = func.call @relu(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
func.func @twice(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = func.call @relu(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = arith.addf %r, %a : tensor<4x4xf32>
  %t = func.call @relu(%s) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
