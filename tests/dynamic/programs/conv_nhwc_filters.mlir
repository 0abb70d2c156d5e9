// A channels-last 2-D convolution with a `?` filter count and a bias of that many
// elements (fused into the convolution's dispatch), over a static image.
func.func @conv(%x: tensor<1x6x7x3xf32>, %w: tensor<3x3x3x?xf32>, %b: tensor<?xf32>) -> tensor<1x4x5x?xf32> {
  %c3 = arith.constant 3 : index
  %f = tensor.dim %w, %c3 : tensor<3x3x3x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%f) : tensor<1x4x5x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x?xf32>) -> tensor<1x4x5x?xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x7x3xf32>, tensor<3x3x3x?xf32>) outs(%o : tensor<1x4x5x?xf32>) -> tensor<1x4x5x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b : tensor<1x4x5x?xf32>, tensor<?xf32>) outs(%e : tensor<1x4x5x?xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x4x5x?xf32>
  return %r : tensor<1x4x5x?xf32>
}
