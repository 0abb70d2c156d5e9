// CASE: an i1 scalar argument of a public function (it compiled and then failed at run time)
// EXPECT: 3:1: error: [vm] scalar argument 1 of type i1 is not supported (exported functions take and return f32, i8, i16, i32, i64, index scalars)
func.func @f(%a: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    %s = arith.select %c, %v, %n : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
