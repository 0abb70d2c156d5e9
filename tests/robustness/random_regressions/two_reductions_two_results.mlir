// FOUND: random program (test_reductions at 60 CI examples, seed 467; a multi-result elementwise op let both results overwrite one input, losing the first store): a max over d2 and a sum over d1 of one input, |sum|, their elementwise max, exp(-x^2); both results returned
func.func @f(%arg0: tensor<3x2x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %e1 = tensor.empty() : tensor<3x2xf32>
  %c2 = arith.constant -1.000000e+30 : f32
  %fill3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<3x2x2xf32>) outs(%fill3 : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  %e5 = tensor.empty() : tensor<3x2xf32>
  %c6 = arith.constant 0.000000e+00 : f32
  %fill7 = linalg.fill ins(%c6 : f32) outs(%e5 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0 : tensor<3x2x2xf32>) outs(%fill7 : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  %e10 = tensor.empty() : tensor<3x2xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v8 : tensor<3x2xf32>) outs(%e10 : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.absf %in : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  %e12 = tensor.empty() : tensor<3x2xf32>
  %v11 = linalg.max ins(%v4, %v9 : tensor<3x2xf32>, tensor<3x2xf32>) outs(%e12 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %e14 = tensor.empty() : tensor<3x2xf32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v11 : tensor<3x2xf32>) outs(%e14 : tensor<3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    %n = arith.negf %s : f32
    %r = math.exp %n : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  return %v11, %v13 : tensor<3x2xf32>, tensor<3x2xf32>
}
