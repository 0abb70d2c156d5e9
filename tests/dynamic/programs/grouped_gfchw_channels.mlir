// A grouped convolution (filters g, f, c: ONNX's grouped Conv) over a `?` batch, group,
// channel and filter count and image, stride 2.
func.func @conv(%a: tensor<?x?x?x?x?xf32>, %w: tensor<?x?x?x3x3xf32>) -> tensor<?x?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %a, %c0 : tensor<?x?x?x?x?xf32>
  %g = tensor.dim %a, %c1 : tensor<?x?x?x?x?xf32>
  %f = tensor.dim %w, %c1 : tensor<?x?x?x3x3xf32>
  %ih = tensor.dim %a, %c3 : tensor<?x?x?x?x?xf32>
  %iw = tensor.dim %a, %c4 : tensor<?x?x?x?x?xf32>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%iw]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n, %g, %f, %oh, %ow) : tensor<?x?x?x?x?xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?x?x?xf32>) -> tensor<?x?x?x?x?xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a, %w : tensor<?x?x?x?x?xf32>, tensor<?x?x?x3x3xf32>) outs(%o : tensor<?x?x?x?x?xf32>) -> tensor<?x?x?x?x?xf32>
  return %r : tensor<?x?x?x?x?xf32>
}
