func.func @concat_ew(%a: tensor<4x6xf32>, %b: tensor<4x3xf32>) -> tensor<4x9xf32> {
  %ea = tensor.empty() : tensor<4x6xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%ea : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<4x6xf32>
  %eb = tensor.empty() : tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x3xf32>) outs(%eb : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = arith.addf %in, %in : f32
    linalg.yield %e : f32
  } -> tensor<4x3xf32>
  %r = tensor.concat dim(1) %x, %y : (tensor<4x6xf32>, tensor<4x3xf32>) -> tensor<4x9xf32>
  return %r : tensor<4x9xf32>
}
