// A run-time-sized part of one tensor written into another at a run-time offset, both read
// from a counts tensor: the slice and the update form one copy dispatch (slow_memcpy) tied to
// the destination, as iree-compile forms it.
func.func @f(%x: tensor<10xf32>, %d: tensor<10xf32>, %n_t: tensor<2xi64>) -> tensor<10xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n64 = tensor.extract %n_t[%c0] : tensor<2xi64>
  %o64 = tensor.extract %n_t[%c1] : tensor<2xi64>
  %n = arith.index_cast %n64 : i64 to index
  %o = arith.index_cast %o64 : i64 to index
  %s = tensor.extract_slice %x[0] [%n] [1] : tensor<10xf32> to tensor<?xf32>
  %r = tensor.insert_slice %s into %d[%o] [%n] [1] : tensor<?xf32> into tensor<10xf32>
  return %r : tensor<10xf32>
}
