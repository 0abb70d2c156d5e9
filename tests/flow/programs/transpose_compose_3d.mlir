// A 3-D generic transpose composed with a named one ([1,2,0] then [0,2,1] = [1,0,2]); the first also feeds a reduction, the composed one folds into a consumer.
func.func @compose3d(%x: tensor<2x3x4xf32>, %b: tensor<3x2x4xf32>) -> (tensor<3x2x4xf32>, tensor<3x4xf32>) {
  %e1 = tensor.empty() : tensor<3x4x2xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e1 : tensor<3x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x4x2xf32>
  %e2 = tensor.empty() : tensor<3x2x4xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x4x2xf32>) outs(%e2 : tensor<3x2x4xf32>) permutation = [0, 2, 1]
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t2, %b : tensor<3x2x4xf32>, tensor<3x2x4xf32>) outs(%e2 : tensor<3x2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %v = arith.subf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<3x2x4xf32>
  %c0 = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<3x4xf32>
  %f3 = linalg.fill ins(%c0 : f32) outs(%e3 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%t1 : tensor<3x4x2xf32>) outs(%f3 : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %s, %n : tensor<3x2x4xf32>, tensor<3x4xf32>
}
