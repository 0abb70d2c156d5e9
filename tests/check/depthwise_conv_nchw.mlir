// linalg.depthwise_conv_2d_nchw_chw (ONNX's Conv with group = channels, NCHW): one 2x2
// filter per channel, with unit and with 2/2 strides and dilations. Expected values are a
// numpy loop over the window; exact (small integers in f32).

func.func @unit_strides() {
  %i = util.unfoldable_constant dense<[[[[-3.0, -2.0, -1.0,  0.0,  1.0,  2.0],   [ 3.0, -3.0, -2.0, -1.0,  0.0,  1.0],   [ 2.0,  3.0, -3.0, -2.0, -1.0,  0.0],   [ 1.0,  2.0,  3.0, -3.0, -2.0, -1.0],   [ 0.0,  1.0,  2.0,  3.0, -3.0, -2.0]],  [[-1.0,  0.0,  1.0,  2.0,  3.0, -3.0],   [-2.0, -1.0,  0.0,  1.0,  2.0,  3.0],   [-3.0, -2.0, -1.0,  0.0,  1.0,  2.0],   [ 3.0, -3.0, -2.0, -1.0,  0.0,  1.0],   [ 2.0,  3.0, -3.0, -2.0, -1.0,  0.0]]]]> : tensor<1x2x5x6xf32>
  %k = util.unfoldable_constant dense<[[[ 1.0, -1.0],  [ 2.0,  0.5]], [[ 0.0,  1.0],  [-2.0,  1.0]]]> : tensor<2x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %o = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%i, %k : tensor<1x2x5x6xf32>, tensor<2x2x2xf32>) outs(%acc : tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  check.expect_eq_const(%o, dense<[[[[  3.5,  -8.0,  -5.5,  -3.0,  -0.5],   [ 11.5,   3.5,  -8.0,  -5.5,  -3.0],   [  2.0,  11.5,   3.5,  -8.0,  -5.5],   [ -0.5,   2.0,  11.5,   3.5,  -8.0]],  [[  3.0,   3.0,   3.0,   3.0,  -4.0],   [  3.0,   3.0,   3.0,   3.0,   3.0],   [-11.0,   3.0,   3.0,   3.0,   3.0],   [ -4.0, -11.0,   3.0,   3.0,   3.0]]]]> : tensor<1x2x4x5xf32>) : tensor<1x2x4x5xf32>
  return
}

func.func @strided_and_dilated() {
  %i = util.unfoldable_constant dense<[[[[-3.0, -2.0, -1.0,  0.0,  1.0,  2.0],   [ 3.0, -3.0, -2.0, -1.0,  0.0,  1.0],   [ 2.0,  3.0, -3.0, -2.0, -1.0,  0.0],   [ 1.0,  2.0,  3.0, -3.0, -2.0, -1.0],   [ 0.0,  1.0,  2.0,  3.0, -3.0, -2.0]],  [[-1.0,  0.0,  1.0,  2.0,  3.0, -3.0],   [-2.0, -1.0,  0.0,  1.0,  2.0,  3.0],   [-3.0, -2.0, -1.0,  0.0,  1.0,  2.0],   [ 3.0, -3.0, -2.0, -1.0,  0.0,  1.0],   [ 2.0,  3.0, -3.0, -2.0, -1.0,  0.0]]]]> : tensor<1x2x5x6xf32>
  %k = util.unfoldable_constant dense<[[[ 1.0, -1.0],  [ 2.0,  0.5]], [[ 0.0,  1.0],  [-2.0,  1.0]]]> : tensor<2x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %o = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%i, %k : tensor<1x2x5x6xf32>, tensor<2x2x2xf32>) outs(%acc : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_eq_const(%o, dense<[[[[ 0.5, -8.5],   [ 6.0,  0.5]],  [[ 6.0,  6.0],   [-8.0,  6.0]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}
