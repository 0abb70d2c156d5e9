// Rows at an offset read from a tensor, consumed by an elementwise op: the slice is cloned into
// the consumer's dispatch and becomes a load at that run-time offset.
func.func @f(%a: tensor<10x4xf32>, %it: tensor<i64>) -> tensor<3x4xf32> {
  %i64 = tensor.extract %it[] : tensor<i64>
  %i = arith.index_cast %i64 : i64 to index
  %s = tensor.extract_slice %a[%i, 0] [3, 4] [1, 1] : tensor<10x4xf32> to tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
