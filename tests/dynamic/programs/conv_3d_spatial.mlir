// A 3-D channels-first convolution over a `?` depth, height and width, stride 2 in depth.
func.func @conv(%x: tensor<1x2x?x?x?xf32>, %w: tensor<3x2x2x2x2xf32>) -> tensor<1x3x?x?x?xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %id = tensor.dim %x, %c2 : tensor<1x2x?x?x?xf32>
  %ih = tensor.dim %x, %c3 : tensor<1x2x?x?x?xf32>
  %iw = tensor.dim %x, %c4 : tensor<1x2x?x?x?xf32>
  %od = affine.apply affine_map<()[s0] -> ((s0 - 2) floordiv 2 + 1)>()[%id]
  %oh = affine.apply affine_map<()[s0] -> (s0 - 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 1)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%od, %oh, %ow) : tensor<1x3x?x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x?x?x?xf32>) -> tensor<1x3x?x?x?xf32>
  %0 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[2, 1, 1]> : tensor<3xi64>} ins(%x, %w : tensor<1x2x?x?x?xf32>, tensor<3x2x2x2x2xf32>) outs(%o : tensor<1x3x?x?x?xf32>) -> tensor<1x3x?x?x?xf32>
  return %0 : tensor<1x3x?x?x?xf32>
}
