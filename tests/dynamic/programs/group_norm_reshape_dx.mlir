// A group normalization over a ? batch as torch-mlir writes ONNX's GroupNormalization:
// `tensor.reshape` to shapes built with `tensor.from_elements` from the batch size, two groups
// of 8 values each, the mean read twice (once through an identity copy), 1e-5 epsilon.
func.func @gn(%x: tensor<?x4x2x2xf32>) -> tensor<?x4x2x2xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : i64
  %c4 = arith.constant 4 : i64
  %c8 = arith.constant 8 : i64
  %zero = arith.constant 0.0 : f32
  %zero2 = arith.constant 0.0 : f32
  %eight = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %n = tensor.dim %x, %c0 : tensor<?x4x2x2xf32>
  %n64 = arith.index_cast %n : index to i64
  %shape = tensor.from_elements %n64, %c2, %c8 : tensor<3xi64>
  %g = tensor.reshape %x(%shape) : (tensor<?x4x2x2xf32>, tensor<3xi64>) -> tensor<?x2x8xf32>
  %e1 = tensor.empty(%n) : tensor<?x2xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x2xf32>) -> tensor<?x2xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g : tensor<?x2x8xf32>) outs(%f1 : tensor<?x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<?x2xf32>
  %e8 = tensor.empty(%n) : tensor<?x2x8xf32>
  %copy = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g : tensor<?x2x8xf32>) outs(%e8 : tensor<?x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x2x8xf32>
  %e2 = tensor.empty(%n) : tensor<?x2xf32>
  %f2 = linalg.fill ins(%zero2 : f32) outs(%e2 : tensor<?x2xf32>) -> tensor<?x2xf32>
  %sum2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%copy : tensor<?x2x8xf32>) outs(%f2 : tensor<?x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<?x2xf32>
  %centered = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%copy, %sum2 : tensor<?x2x8xf32>, tensor<?x2xf32>) outs(%e8 : tensor<?x2x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %eight : f32
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<?x2x8xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%centered : tensor<?x2x8xf32>) outs(%f2 : tensor<?x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %out : f32
    linalg.yield %s : f32
  } -> tensor<?x2xf32>
  %norm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g, %sum, %sq : tensor<?x2x8xf32>, tensor<?x2xf32>, tensor<?x2xf32>) outs(%e8 : tensor<?x2x8xf32>) {
  ^bb0(%in: f32, %s: f32, %v: f32, %out: f32):
    %m = arith.divf %s, %eight : f32
    %d = arith.subf %in, %m : f32
    %var = arith.divf %v, %eight : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %y = arith.mulf %d, %r : f32
    linalg.yield %y : f32
  } -> tensor<?x2x8xf32>
  %back = tensor.from_elements %n64, %c4, %c2, %c2 : tensor<4xi64>
  %out = tensor.reshape %norm(%back) : (tensor<?x2x8xf32>, tensor<4xi64>) -> tensor<?x4x2x2xf32>
  return %out : tensor<?x4x2x2xf32>
}
