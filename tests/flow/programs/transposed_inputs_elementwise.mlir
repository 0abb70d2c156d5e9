// Two inputs read through the same permutation ([2, 1, 0]) by an elementwise body that also
// reads linalg.index: the interchange makes both input maps the identity and renumbers the
// index ops (loop 0 of the result order is loop 2 of the source order).
func.func @add_transposed(%a: tensor<2x3x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %e = tensor.empty() : tensor<4x3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e : tensor<4x3x2xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %s = arith.addf %x, %y : f32
    %v = arith.mulf %s, %fi : f32
    linalg.yield %v : f32
  } -> tensor<4x3x2xf32>
  return %r : tensor<4x3x2xf32>
}
