// The single-result counterpart: a+b is returned and read by the elementwise consumer. A result
// with a compute user gets no end barrier, so the multi-use producer still fuses: one
// elementwise_24_f32 dispatch with two results, as in IREE.
func.func @sum_returned_and_doubled(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e0 = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e2 = tensor.empty() : tensor<4x6xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x6xf32>) outs(%e2 : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  return %r, %c : tensor<4x6xf32>, tensor<4x6xf32>
}
