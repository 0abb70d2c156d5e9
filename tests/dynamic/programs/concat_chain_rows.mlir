// A concat as front ends lower it: an empty tensor sized by tensor.dim arithmetic and an
// insert_slice per input at offsets the host computes from the shapes; each is one
// contiguous run of rows, so a host flow.tensor.update.
func.func @stack(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %m = tensor.dim %b, %c0 : tensor<?x4xf32>
  %total = arith.addi %n, %m : index
  %e = tensor.empty(%total) : tensor<?x4xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [%n, 4] [1, 1] : tensor<?x4xf32> into tensor<?x4xf32>
  %1 = tensor.insert_slice %b into %0[%n, 0] [%m, 4] [1, 1] : tensor<?x4xf32> into tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}
