// A channels-last 2-D convolution over a `?` input channel count and image, with a bias
// added (fused into the convolution's dispatch).
func.func @conv(%x: tensor<1x?x?x?xf32>, %w: tensor<3x3x?x4xf32>, %b: tensor<4xf32>) -> tensor<1x?x?x4xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ih = tensor.dim %x, %c1 : tensor<1x?x?x?xf32>
  %iw = tensor.dim %x, %c2 : tensor<1x?x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> (s0 - 2)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 2)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%oh, %ow) : tensor<1x?x?x4xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x?x?x?xf32>, tensor<3x3x?x4xf32>) outs(%o : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b : tensor<1x?x?x4xf32>, tensor<4xf32>) outs(%e : tensor<1x?x?x4xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x?x?x4xf32>
  return %r : tensor<1x?x?x4xf32>
}
