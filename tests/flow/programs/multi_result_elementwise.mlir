// A two-result elementwise generic written in MLIR's syntax (`-> (t1, t2)`): sum and product of
// two operands in one loop nest, the first operand negated by a single-use producer that fuses
// into it; one dispatch with two results, named by its collapsed loop (elementwise_24_f32).
func.func @sum_and_product(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %w = arith.negf %v : f32
    linalg.yield %w : f32
  } -> tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<4x6xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n, %b : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e0, %e1 : tensor<4x6xf32>, tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %x, %y : f32
    linalg.yield %s, %p : f32, f32
  } -> (tensor<4x6xf32>, tensor<4x6xf32>)
  return %r#0, %r#1 : tensor<4x6xf32>, tensor<4x6xf32>
}
