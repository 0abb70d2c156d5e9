// linalg.conv_2d_nchw_fchw_q as torch-mlir lowers ONNX's ConvInteger: i8 image and filter,
// i32 zero points (one an argument, one a constant GeneralizeLinalgNamedOpsPass leaves as an
// input and ElementwiseOpFusionPass folds into the body), accumulated in i32.
func.func @conv_q(%x: tensor<2x3x7x6xi8>, %k: tensor<4x3x3x2xi8>, %xzp: i32) -> tensor<2x4x3x5xi32> {
  %kzp = arith.constant -3 : i32
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x4x3x5xi32>
  %init = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x4x3x5xi32>) -> tensor<2x4x3x5xi32>
  %r = linalg.conv_2d_nchw_fchw_q {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%x, %k, %xzp, %kzp : tensor<2x3x7x6xi8>, tensor<4x3x3x2xi8>, i32, i32) outs(%init : tensor<2x4x3x5xi32>) -> tensor<2x4x3x5xi32>
  return %r : tensor<2x4x3x5xi32>
}

// Dilated, batch 1 (FoldUnitExtentDimsPass drops the batch).
func.func @conv_q_dilated(%x: tensor<1x2x6x6xi8>, %k: tensor<3x2x2x2xi8>, %xzp: i32, %kzp: i32) -> tensor<1x3x4x4xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x4x4xi32>
  %init = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xi32>
  %r = linalg.conv_2d_nchw_fchw_q {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k, %xzp, %kzp : tensor<1x2x6x6xi8>, tensor<3x2x2x2xi8>, i32, i32) outs(%init : tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xi32>
  return %r : tensor<1x3x4x4xi32>
}
