// A 1-D convolution over a `?` length padded by one on each side, its bias broadcast into the
// accumulator and a ReLU after it: what torch's Conv1d(4, 8, 3, padding=1) over a dynamic
// length is after IREE's input conversion. The pad's unit batch folds with its `?` size.
func.func @conv(%x: tensor<1x4x?xf32>, %w: tensor<8x4x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x?xf32> {
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c2 : tensor<1x4x?xf32>
  %padded = tensor.pad %x low[0, 0, 1] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x4x?xf32> to tensor<1x4x?xf32>
  %e = tensor.empty(%n) : tensor<1x8x?xf32>
  %bias = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x?xf32>) dimensions = [0, 2]
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%padded, %w : tensor<1x4x?xf32>, tensor<8x4x3xf32>) outs(%bias : tensor<1x8x?xf32>) -> tensor<1x8x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x?xf32>) outs(%e : tensor<1x8x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %p, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x8x?xf32>
  return %r : tensor<1x8x?xf32>
}
