// CASE: the body yields an i32 into an f32 tensor
// EXPECT: 8:5: error: [input] linalg.yield type i32 does not match the output element type f32
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 1 : i32
    linalg.yield %c : i32
  } -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
