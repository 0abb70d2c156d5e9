// Slices of a ?x4 input at rows read from a tensor: two rows at %i, row %j replaced, and the
// middle columns of the rows from %i to the end (a size of shape minus the read offset). All
// three are copy dispatches (slow_memcpy) taking the read values, as iree-compile forms them.
func.func @f(%a: tensor<?x4xf32>, %it: tensor<2xi64>, %row: tensor<1x4xf32>) -> (tensor<2x4xf32>, tensor<?x4xf32>, tensor<?x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i64 = tensor.extract %it[%c0] : tensor<2xi64>
  %j64 = tensor.extract %it[%c1] : tensor<2xi64>
  %i = arith.index_cast %i64 : i64 to index
  %j = arith.index_cast %j64 : i64 to index
  %s = tensor.extract_slice %a[%i, 0] [2, 4] [1, 1] : tensor<?x4xf32> to tensor<2x4xf32>
  %u = tensor.insert_slice %row into %a[%j, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<?x4xf32>
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %k = arith.subi %n, %i : index
  %t = tensor.extract_slice %a[%i, 1] [%k, 2] [1, 1] : tensor<?x4xf32> to tensor<?x2xf32>
  return %s, %u, %t : tensor<2x4xf32>, tensor<?x4xf32>, tensor<?x2xf32>
}
