// conv_2d_nhwc_hwcf, a ReLU, then a 2x2 max pool with stride 2 (a CNN block).
func.func @block(%x: tensor<1x10x10x3xf32>, %k: tensor<3x3x3x8xf32>) -> tensor<1x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ec = tensor.empty() : tensor<1x8x8x8xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%fc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x8x8xf32>) outs(%ec : tensor<1x8x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x8xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<1x4x4x8xf32>
  %fp = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%r, %w : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%fp : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %p : tensor<1x4x4x8xf32>
}
