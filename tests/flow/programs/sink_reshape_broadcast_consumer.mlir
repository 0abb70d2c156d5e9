// A matmul's expanded view minus a (d0, d1, 0)-read 8x4x1 operand: the reshape stays (2 dispatches);
// FoldUnitExtentDims reads the operand as 8x4, so the elementwise dispatch collapses to 32x8, as IREE.

func.func @bcast(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<8x4x1xf32>) -> tensor<8x4x8xf32> {

  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %x = tensor.expand_shape %m [[0], [1, 2]] output_shape [8, 4, 8] : tensor<8x32xf32> into tensor<8x4x8xf32>

  %e3 = tensor.empty() : tensor<8x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %c : tensor<8x4x8xf32>, tensor<8x4x1xf32>) outs(%e3 : tensor<8x4x8xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.subf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<8x4x8xf32>
  return %r : tensor<8x4x8xf32>
}
