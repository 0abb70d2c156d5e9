// Scalar arguments read inside elementwise bodies, %a by two dispatches: an elementwise
// producer (IREE does not fuse it into the matmul) and the matmul's fused consumer. Each
// dispatch takes its scalars as operands ahead of its tensors (IREE's post-order capture).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale_shift(%x: tensor<4x6xf32>, %w: tensor<6x3xf32>, %a: f32, %b: f32) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m = arith.mulf %i, %a : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %mm = linalg.matmul ins(%y, %w : tensor<4x6xf32>, tensor<6x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<4x3xf32>) outs(%e2 : tensor<4x3xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m = arith.mulf %i, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
