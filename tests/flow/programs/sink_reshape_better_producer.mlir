// The add's other operand has a better producer (a 3-D contraction): the reshape stays, as in IREE.

func.func @two(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %p: tensor<8x4x16xf32>, %q: tensor<16x8xf32>) -> tensor<8x4x8xf32> {

  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %x = tensor.expand_shape %m [[0], [1, 2]] output_shape [8, 4, 8] : tensor<8x32xf32> into tensor<8x4x8xf32>

  %e3 = tensor.empty() : tensor<8x4x8xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<8x4x8xf32>) -> tensor<8x4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %q : tensor<8x4x16xf32>, tensor<16x8xf32>) outs(%f3 : tensor<8x4x8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %w = arith.mulf %u, %v : f32
    %t = arith.addf %o, %w : f32
    linalg.yield %t : f32
  } -> tensor<8x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %y : tensor<8x4x8xf32>, tensor<8x4x8xf32>) outs(%e3 : tensor<8x4x8xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<8x4x8xf32>
  return %r : tensor<8x4x8xf32>
}
