// A channels-first 2x2 max pool, stride 2, over a `?` batch, channel count and image.
func.func @pool(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %ch = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %ih = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %iw = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 2) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> ((s0 - 2) floordiv 2 + 1)>()[%iw]
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty(%n, %ch, %oh, %ow) : tensor<?x?x?x?xf32>
  %o = linalg.fill ins(%lowest : f32) outs(%e : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : tensor<?x?x?x?xf32>, tensor<2x2xf32>) outs(%o : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}
