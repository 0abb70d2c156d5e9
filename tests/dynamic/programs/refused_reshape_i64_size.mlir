// A `tensor.reshape` whose `?` size is computed in i64 (the batch times 2): refused, located.
func.func @rs(%x: tensor<?x4x2x2xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : i64
  %c8 = arith.constant 8 : i64
  %n = tensor.dim %x, %c0 : tensor<?x4x2x2xf32>
  %n64 = arith.index_cast %n : index to i64
  %rows = arith.muli %n64, %c2 : i64
  %shape = tensor.from_elements %rows, %c8 : tensor<2xi64>
  %r = tensor.reshape %x(%shape) : (tensor<?x4x2x2xf32>, tensor<2xi64>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
