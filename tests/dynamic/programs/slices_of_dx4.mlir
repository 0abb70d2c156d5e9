// Slices of a ?x4 input positioned by its shape alone (tensor.dim arithmetic): all rows but
// the first are one contiguous run (a host flow.tensor.slice); the middle two columns are
// not (a copy dispatch, slow_memcpy); the last row replaced by %row is a host
// flow.tensor.update at row n-1.
func.func @parts(%a: tensor<?x4xf32>, %row: tensor<1x4xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %m = arith.subi %n, %c1 : index
  %tail = tensor.extract_slice %a[1, 0] [%m, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  %mid = tensor.extract_slice %a[0, 1] [%n, 2] [1, 1] : tensor<?x4xf32> to tensor<?x2xf32>
  %last = tensor.insert_slice %row into %a[%m, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<?x4xf32>
  return %tail, %mid, %last : tensor<?x4xf32>, tensor<?x2xf32>, tensor<?x4xf32>
}
