// A channels-first 2x2 max pool, stride 2, over a `?` height and width.
func.func @pool(%x: tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ih = tensor.dim %x, %c2 : tensor<1x3x?x?xf32>
  %iw = tensor.dim %x, %c3 : tensor<1x3x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 2) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> ((s0 - 2) floordiv 2 + 1)>()[%iw]
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty(%oh, %ow) : tensor<1x3x?x?xf32>
  %o = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : tensor<1x3x?x?xf32>, tensor<2x2xf32>) outs(%o : tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}
