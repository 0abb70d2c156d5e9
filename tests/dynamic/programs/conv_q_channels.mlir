// ONNX's ConvInteger (linalg.conv_2d_nchw_fchw_q) over `?` input channel and filter counts,
// a `?` batch and image, stride (2, 1), as in conv_q_batch.mlir.
func.func @conv(%x: tensor<?x?x?x?xi8>, %k: tensor<?x?x3x2xi8>, %xzp: i32, %kzp: i32) -> tensor<?x?x?x?xi32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?x?x?x?xi8>
  %f = tensor.dim %k, %c0 : tensor<?x?x3x2xi8>
  %ih = tensor.dim %x, %c2 : tensor<?x?x?x?xi8>
  %iw = tensor.dim %x, %c3 : tensor<?x?x?x?xi8>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 1)>()[%iw]
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%n, %f, %oh, %ow) : tensor<?x?x?x?xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<?x?x?x?xi32>) -> tensor<?x?x?x?xi32>
  %r = linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%x, %k, %xzp, %kzp : tensor<?x?x?x?xi8>, tensor<?x?x3x2xi8>, i32, i32) outs(%init : tensor<?x?x?x?xi32>) -> tensor<?x?x?x?xi32>
  return %r : tensor<?x?x?x?xi32>
}
