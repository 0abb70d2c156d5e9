// i1 tensors with #iree_encoding.packed_storage: eight elements to a byte, the first in the
// low bit (without the encoding, IREE stores a byte per i1). Expected values are numpy's
// unpackbits(..., bitorder="little") of the same bytes.

func.func @bytes_as_packed_mask_select() {
  // 0xA5 = 1010 0101: elements 0, 2, 5, 7 set; 0x0F: elements 8..11 set
  %bytes = util.unfoldable_constant dense<[-91, 15]> : tensor<2xi8>
  %mask = flow.tensor.bitcast %bytes : tensor<2xi8> -> tensor<16xi1, #iree_encoding.packed_storage>
  %e = tensor.empty() : tensor<16xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
      ins(%mask : tensor<16xi1, #iree_encoding.packed_storage>) outs(%e : tensor<16xi32>) {
  ^bb0(%m: i1, %o: i32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    %zero = arith.constant -1 : i32
    %s = arith.select %m, %v, %zero : i32
    linalg.yield %s : i32
  } -> tensor<16xi32>
  check.expect_eq_const(%r, dense<[0, -1, 2, -1, -1, 5, -1, 7, 8, 9, 10, 11, -1, -1, -1, -1]> : tensor<16xi32>) : tensor<16xi32>
  return
}

func.func @comparison_stored_packed() {
  %x = util.unfoldable_constant dense<[[1.0, -2.0, 3.0, -4.0, 5.0, 6.0, -7.0, 8.0], [-1.0, -1.0, 2.0, 2.0, -3.0, 3.0, 0.5, -0.5]]> : tensor<2x8xf32>
  %e = tensor.empty() : tensor<2x8xi1, #iree_encoding.packed_storage>
  %positive = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xi1, #iree_encoding.packed_storage>) {
  ^bb0(%in: f32, %o: i1):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %in, %zero : f32
    linalg.yield %p : i1
  } -> tensor<2x8xi1, #iree_encoding.packed_storage>
  %kept = util.optimization_barrier %positive : tensor<2x8xi1, #iree_encoding.packed_storage>
  %bytes = flow.tensor.bitcast %kept : tensor<2x8xi1, #iree_encoding.packed_storage> -> tensor<2xi8>
  // row 0: 1 0 1 0 1 1 0 1 -> 0xB5 (-75); row 1: 0 0 1 1 0 1 1 0 -> 0x6C (108)
  check.expect_eq_const(%bytes, dense<[-75, 108]> : tensor<2xi8>) : tensor<2xi8>
  return
}
