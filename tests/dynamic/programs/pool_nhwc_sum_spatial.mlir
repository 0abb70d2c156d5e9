// A channels-last 3x3 sum pool, dilated 2, over a `?` batch, height and width.
func.func @pool(%x: tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x?x2xf32>
  %ih = tensor.dim %x, %c1 : tensor<?x?x?x2xf32>
  %iw = tensor.dim %x, %c2 : tensor<?x?x?x2xf32>
  %oh = affine.apply affine_map<()[s0] -> (s0 - 4)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 4)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n, %oh, %ow) : tensor<?x?x?x2xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nhwc_sum {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %window : tensor<?x?x?x2xf32>, tensor<3x3xf32>) outs(%o : tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}
