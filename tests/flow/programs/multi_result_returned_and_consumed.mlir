// A two-result generic (a+b, a*b) whose first result is only returned and whose second feeds an
// elementwise op: InsertTensorBarriers puts the first result's compute_barrier.end right after
// the generic, before the consumer, so FuseMultiUseElementwiseProducer refuses and IREE forms
// two elementwise_24_f32 dispatches.
func.func @sum_returned_product_doubled(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e0 = tensor.empty() : tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<4x6xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e0, %e1 : tensor<4x6xf32>, tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %x, %y : f32
    linalg.yield %s, %p : f32, f32
  } -> (tensor<4x6xf32>, tensor<4x6xf32>)
  %e2 = tensor.empty() : tensor<4x6xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r#1 : tensor<4x6xf32>) outs(%e2 : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.addf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<4x6xf32>
  return %r#0, %c : tensor<4x6xf32>, tensor<4x6xf32>
}
