// linalg.generic: a transposed and a broadcast input, a reduction loop, two results (MLIR's
// `-> (t1, t2)` form), a body of arith and math.
func.func @generic(%a: tensor<8x4xf32>, %b: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %s = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (k, i)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<8x4xf32>, tensor<8xf32>) outs(%s, %m : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32, %mx: f32):
    %p = arith.mulf %x, %y : f32
    %t = math.tanh %p : f32
    %sum = arith.addf %acc, %t : f32
    %big = arith.maximumf %mx, %p : f32
    linalg.yield %sum, %big : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
