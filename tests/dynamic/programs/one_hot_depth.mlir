// One-hot rows whose depth is an input's value (ONNX OneHot through IREE's importer builds
// tensor.empty(%n) from the depth tensor): the host reads the depth back, so the iota's size
// is known at run time. Issue 17: this was once compiled as if the size were fixed.
func.func @f(%idx: tensor<3xi64>, %depth: tensor<f32>) -> tensor<3x12xi32> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %d = tensor.extract %depth[] : tensor<f32>
  %n64 = arith.fptosi %d : f32 to i64
  %n = arith.index_cast %n64 : i64 to index
  %empty = tensor.empty(%n) : tensor<?xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%empty : tensor<?xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<?xi64>
  %col = tensor.expand_shape %idx [[0, 1]] output_shape [3, 1] : tensor<3xi64> into tensor<3x1xi64>
  %init = tensor.empty() : tensor<3x12xi32>
  %hot = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%col, %iota : tensor<3x1xi64>, tensor<?xi64>) outs(%init : tensor<3x12xi32>) {
  ^bb0(%a: i64, %b: i64, %out: i32):
    %eq = arith.cmpi eq, %a, %b : i64
    %r = arith.select %eq, %c1_i32, %c0_i32 : i32
    linalg.yield %r : i32
  } -> tensor<3x12xi32>
  return %hot : tensor<3x12xi32>
}
