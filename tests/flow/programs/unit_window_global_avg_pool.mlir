func.func @global_avg_pool(%x: tensor<1x10x3x3xf32>) -> tensor<1x10x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %nine = arith.constant 9.0 : f32
  %k = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x10x1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x1x1xf32>) -> tensor<1x10x1x1xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x10x3x3xf32>, tensor<3x3xf32>) outs(%f : tensor<1x10x1x1xf32>) -> tensor<1x10x1x1xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x10x1x1xf32>) outs(%e : tensor<1x10x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %nine : f32
    linalg.yield %q : f32
  } -> tensor<1x10x1x1xf32>
  return %d : tensor<1x10x1x1xf32>
}
