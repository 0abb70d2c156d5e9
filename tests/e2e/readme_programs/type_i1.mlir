// i1 tensors: logic on booleans, a comparison producing them and a select consuming them.
func.func @typed(%a: tensor<4x8xi1>, %b: tensor<4x8xi1>, %x: tensor<4x8xf32>) -> (tensor<4x8xi1>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xi1>
  %ef = tensor.empty() : tensor<4x8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %x : tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xf32>) outs(%e : tensor<4x8xi1>) {
  ^bb0(%u: i1, %v: i1, %w: f32, %o: i1):
    %and = arith.andi %u, %v : i1
    %pos = arith.cmpf ogt, %w, %zero : f32
    %r = arith.xori %and, %pos : i1
    linalg.yield %r : i1
  } -> tensor<4x8xi1>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%l, %x : tensor<4x8xi1>, tensor<4x8xf32>) outs(%ef : tensor<4x8xf32>) {
  ^bb0(%c: i1, %w: f32, %o: f32):
    %n = arith.negf %w : f32
    %r = arith.select %c, %w, %n : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %l, %s : tensor<4x8xi1>, tensor<4x8xf32>
}
