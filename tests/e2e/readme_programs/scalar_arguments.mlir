// Scalar arguments of f32 and i8 to i64, and a scalar result.
func.func @scale(%x: tensor<4x4xf32>, %s: f32, %n: tensor<4xi32>, %k: i32, %c8: i8, %c16: i16, %c64: i64) -> (tensor<4x4xf32>, tensor<4xi32>, i64) {
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ei = tensor.empty() : tensor<4xi32>
  %z = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%n : tensor<4xi32>) outs(%ei : tensor<4xi32>) {
  ^bb0(%v: i32, %o: i32):
    %a8 = arith.extsi %c8 : i8 to i32
    %a16 = arith.extsi %c16 : i16 to i32
    %p = arith.muli %v, %k : i32
    %q = arith.addi %p, %a8 : i32
    %r = arith.addi %q, %a16 : i32
    linalg.yield %r : i32
  } -> tensor<4xi32>
  return %y, %z, %c64 : tensor<4x4xf32>, tensor<4xi32>, i64
}
