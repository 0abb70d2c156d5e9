// Row sums over the two inner dimensions then a scale: the inner loops collapse (4x512).
func.func @inner(%a: tensor<4x32x16xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%a : tensor<4x32x16xf32>) outs(%f : tensor<4xf32>) dimensions = [1, 2]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %p = arith.mulf %v, %h : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  return %m : tensor<4xf32>
}
