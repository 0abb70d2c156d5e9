// As rows_from_value, with a count offset by 2^32: the host must read all 64 bits of the
// element (two 32-bit loads combined, as IREE's HALToVM does) to get the row count right.
func.func @rows(%n_t: tensor<i64>, %x: tensor<4xf32>) -> tensor<?x4xf32> {
  %c2_32 = arith.constant 4294967296 : i64
  %wide = tensor.extract %n_t[] : tensor<i64>
  %n64 = arith.subi %wide, %c2_32 : i64
  %n = arith.index_cast %n64 : i64 to index
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
