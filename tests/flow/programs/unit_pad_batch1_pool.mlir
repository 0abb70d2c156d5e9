func.func @relu_pad_pool(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x5x5xf32>) outs(%e : tensor<1x4x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x5x5xf32>
  %p = tensor.pad %r low[0, 0, 0, 0] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x5x5xf32> to tensor<1x4x7x7xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %o = tensor.empty() : tensor<1x4x3x3xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%o : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %k : tensor<1x4x7x7xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %pool : tensor<1x4x3x3xf32>
}
