// ONNX's ConvInteger as torch-mlir lowers it (linalg.conv_2d_nchw_fchw_q: i8 image and
// filter, i32 zero points, accumulated in i32) over a `?` batch and `?` image sizes,
// strided along the height: GeneralizeLinalgNamedOpsPass makes it a generic.
func.func @conv(%x: tensor<?x3x?x?xi8>, %k: tensor<4x3x3x2xi8>, %xzp: i32, %kzp: i32) -> tensor<?x4x?x?xi32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x?x?xi8>
  %ih = tensor.dim %x, %c2 : tensor<?x3x?x?xi8>
  %iw = tensor.dim %x, %c3 : tensor<?x3x?x?xi8>
  %oh = affine.apply affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>()[%ih]
  %ow = affine.apply affine_map<()[s0] -> (s0 - 1)>()[%iw]
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%n, %oh, %ow) : tensor<?x4x?x?xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<?x4x?x?xi32>) -> tensor<?x4x?x?xi32>
  %r = linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%x, %k, %xzp, %kzp : tensor<?x3x?x?xi8>, tensor<4x3x3x2xi8>, i32, i32) outs(%init : tensor<?x4x?x?xi32>) -> tensor<?x4x?x?xi32>
  return %r : tensor<?x4x?x?xi32>
}
