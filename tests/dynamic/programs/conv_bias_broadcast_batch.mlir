// ONNX's Conv with a bias over a `?` batch, as IREE's importer lowers it: the bias broadcast
// into the accumulator, the image padded, a Relu after it.
func.func @conv(%x: tensor<?x2x5x5xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3xf32>) -> tensor<?x3x5x5xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x2x5x5xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x2x5x5xf32> to tensor<?x2x7x7xf32>
  %e = tensor.empty(%n) : tensor<?x3x5x5xf32>
  %acc = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<?x3x5x5xf32>) dimensions = [0, 2, 3]
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<?x2x7x7xf32>, tensor<3x2x3x3xf32>) outs(%acc : tensor<?x3x5x5xf32>) -> tensor<?x3x5x5xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0 : tensor<?x3x5x5xf32>) outs(%e : tensor<?x3x5x5xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x3x5x5xf32>
  return %1 : tensor<?x3x5x5xf32>
}
