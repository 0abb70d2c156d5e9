// A channels-last convolution over a `?` batch, strided, with a bias added after it.
func.func @conv(%x: tensor<?x7x7x2xf32>, %w: tensor<3x3x2x4xf32>, %b: tensor<4xf32>) -> tensor<?x3x3x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x7x7x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x3x3x4xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3x3x4xf32>) -> tensor<?x3x3x4xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<?x7x7x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<?x3x3x4xf32>) -> tensor<?x3x3x4xf32>
  %r = tensor.empty(%n) : tensor<?x3x3x4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0, %b : tensor<?x3x3x4xf32>, tensor<4xf32>) outs(%r : tensor<?x3x3x4xf32>) {
  ^bb0(%v: f32, %bb: f32, %out: f32):
    %s = arith.addf %v, %bb : f32
    linalg.yield %s : f32
  } -> tensor<?x3x3x4xf32>
  return %1 : tensor<?x3x3x4xf32>
}
